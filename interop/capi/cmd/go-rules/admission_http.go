package main

// The admission webhooks as an HTTP server, as Cluster API's manager serves them.
//
//	AdmissionHTTP  {"webhook": "mutate" | "validate", "gate": bool, "contentType": header
//	               value or null (no header), "body": base64 of the request body}
//	               -> {"code": HTTP status, "contentType": the answer's header, "body": the
//	               answer's body as text}: controller-runtime's admission.Webhook.ServeHTTP
//	               around Cluster API's ExtensionConfig webhook, for bodies it may not be able
//	               to decode (empty, malformed, not a review, the wrong media type, too large).

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
)

type admissionHTTPCase struct {
	Webhook     string  `json:"webhook"`
	Gate        bool    `json:"gate"`
	ContentType *string `json:"contentType"`
	Body        string  `json:"body"`
}

type admissionHTTPAnswer struct {
	Code        int    `json:"code"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
}

func admitHTTP(c admissionHTTPCase) (result, error) {
	body, err := base64.StdEncoding.DecodeString(c.Body)
	if err != nil {
		return result{}, err
	}
	handler, err := admissionWebhook(c.Webhook, c.Gate)
	if err != nil {
		return result{}, err
	}
	request := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	if len(body) == 0 {
		request.Body = http.NoBody
	}
	if c.ContentType != nil {
		request.Header.Set("Content-Type", *c.ContentType)
	}
	recorder := httptest.NewRecorder()
	handler.ServeHTTP(recorder, request)
	return result{Out: admissionHTTPAnswer{
		Code:        recorder.Code,
		ContentType: recorder.Header().Get("Content-Type"),
		Body:        recorder.Body.String(),
	}}, nil
}
