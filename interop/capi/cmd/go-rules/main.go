// Command go-rules is the oracle of capi_runtime::go: it runs the real Go
// functions whose behaviour the Rust module reproduces, over cases it reads from
// stdin, one JSON object per line, and writes one JSON result per line, in
// order:
//
//	{"fn": "<function>", "in": <input>}  ->  {"out": <output>, "err": "<error text>"}
//
// Functions (inputs and outputs as JSON values):
//
//	ParseDuration      string -> nanoseconds as a decimal string, or err
//	Base64Decode       text in hex -> base64.StdEncoding.DecodeString's bytes in
//	                   hex, or err (how encoding/json reads a []byte)
//	ParseRFC3339       string -> time.Parse(time.RFC3339, s) as {"unix": seconds,
//	                   "nanos": n}, or err (how metav1.Time reads a time)
//	DurationString     nanoseconds as a decimal string -> time.Duration(n).String()
//	Quote              string -> strconv.Quote
//	ParseRequestURI    string -> the parsed URL's fields (host, path, user name and
//	                   password in hex: they may hold any bytes) and its String(), or err
//	Parse              string -> url.Parse's URL, the same fields (the fragment
//	                   is not written), or err
//	ParseQuery         string -> {"values": {hex key: [hex values]}, "err": text or null}
//	Aggregate          [item] -> utilerrors.NewAggregate(items).Error(), null when nil
//	Chain              item -> the item's Error()
//	FormatLabelSelector  LabelSelector or null -> metav1.FormatLabelSelector
//	LabelSelectorAsSelector  LabelSelector or null -> selector.String(), or err
//	SelectorMatches    {"selector": LabelSelector or null, "labels": {key: value}}
//	                   -> whether Cluster API's runtime client calls a handler with that
//	                   namespaceSelector for an object in a namespace with those labels:
//	                   the registry compiles the selector with
//	                   metav1.LabelSelectorAsSelector, and matchNamespace answers true at
//	                   once for an empty selector, else selector.Matches(labels.Set(the
//	                   Namespace's labels)); bool, or err when the selector does not compile
//	Names              string -> the messages of apimachinery's name validations
//	PortNum            int -> validation.IsValidPortNum
//	ValidateExtensionConfig  {"object": ExtensionConfig, "gate": bool} -> Cluster
//	                   API's ExtensionConfig webhook: the object after Default, and
//	                   ValidateCreate's error (text and API status)
//	Proxy              {"env": {name: value}, "url": request URL} -> the proxy
//	                   settings httpproxy.FromEnvironment reads from exactly that
//	                   environment, and the answer for the URL (url.ParseRequestURI)
//	                   of their ProxyFunc ("go") and of apimachinery's
//	                   NewProxierWithNoProxyCIDR around it, as Cluster API's runtime
//	                   client uses it ("clusterApi"): {"proxy": URL or null, "err": text or null}
//	Admission          {"webhook": "mutate" | "validate", "gate": bool, "request":
//	                   AdmissionRequest} -> the AdmissionResponse Cluster API's webhook
//	                   server answers (controller-runtime's handler around the webhook)
//	AdmissionHTTP      the same webhooks as an HTTP server, for bodies it may not
//	                   decode (see admission_http.go)
//	WireDecode, WireFill  hook messages as Cluster API reads them (see wire.go)
//	VerifyChain        {"caBundle": PEM text, "chain": [base64 DER: the leaf, then the
//	                   rest the server sends], "serverName": host, "time": unix seconds}
//	                   -> the verdict of Cluster API's runtime client on that server
//	                   chain: the tls.Config comes from client-go's transport.TLSConfigFor
//	                   (CAData = caBundle, ServerName = the host), as Cluster API's
//	                   createHTTPClient builds it, and the chain is judged as crypto/tls's
//	                   client judges a server's certificates (each parsed, then
//	                   Certificate.Verify with that pool as Roots, the rest of the chain as
//	                   Intermediates, DNSName = ServerName, the given CurrentTime and the
//	                   default key usage, server authentication). out is null when the
//	                   chain is accepted; else err is the handshake's error text and out is
//	                   {"class": the kind of x509 error (see verifyClass)}
//	WirePointerZeros   a body per pointer to a scalar of a hook message (see pointers.go)
//
// An item of Aggregate and Chain is a string (errors.New), an array (a nested
// NewAggregate) or {"wrap": "<context>", "cause": item} (fmt.Errorf("%s: %w")).
//
// With -print-ranges it instead writes the printable ranges of strconv.IsPrint
// as a JSON array of [first, last] code points, and with -print-folds the
// non-ASCII runes encoding/json's field matching folds to another rune, as
// [rune, folded] pairs, and with -print-values the fields of hook messages Go
// holds by value (see values.go); cargo xtask go-tables reads all three.
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/http/httpproxy"
	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/transport"
	runtimev1 "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
	"sigs.k8s.io/cluster-api/core/webhooks/admission"
	"sigs.k8s.io/cluster-api/feature"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

type request struct {
	Fn string          `json:"fn"`
	In json.RawMessage `json:"in"`
}

type result struct {
	Out any     `json:"out"`
	Err *string `json:"err"`
}

// Unescaped parts of a URL may hold any bytes, so they are written in hex.
type userInfo struct {
	Username    string `json:"username"`
	Password    string `json:"password"`
	PasswordSet bool   `json:"passwordSet"`
}

type parsedURL struct {
	Scheme     string    `json:"scheme"`
	Opaque     string    `json:"opaque"`
	User       *userInfo `json:"user"`
	Host       string    `json:"host"`
	Path       string    `json:"path"`
	RawQuery   string    `json:"rawQuery"`
	ForceQuery bool      `json:"forceQuery"`
	OmitHost   bool      `json:"omitHost"`
	String     string    `json:"string"`
}

type names struct {
	DNS1123Label     []string `json:"dns1123Label"`
	DNS1123Subdomain []string `json:"dns1123Subdomain"`
	DNS1035Label     []string `json:"dns1035Label"`
	QualifiedName    []string `json:"qualifiedName"`
	LabelValue       []string `json:"labelValue"`
}

type webhookCase struct {
	Object json.RawMessage `json:"object"`
	Gate   bool            `json:"gate"`
}

type webhookResult struct {
	Defaulted json.RawMessage `json:"defaulted"`
	Error     *string         `json:"error"`
	Status    *metav1.Status  `json:"status"`
}

func fail(err error) result {
	s := err.Error()
	return result{Err: &s}
}

// item builds the error an Aggregate or Chain item describes.
func item(raw json.RawMessage) (error, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return errors.New(s), nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		return aggregate(list)
	}
	var w struct {
		Wrap  string          `json:"wrap"`
		Cause json.RawMessage `json:"cause"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	cause, err := item(w.Cause)
	if err != nil {
		return nil, err
	}
	return fmt.Errorf("%s: %w", w.Wrap, cause), nil
}

func aggregate(list []json.RawMessage) (error, error) {
	errs := make([]error, 0, len(list))
	for _, raw := range list {
		e, err := item(raw)
		if err != nil {
			return nil, err
		}
		errs = append(errs, e)
	}
	agg := utilerrors.NewAggregate(errs)
	if agg == nil {
		// A nil Aggregate in an error interface would not be a nil error.
		return nil, nil
	}
	return agg, nil
}

func run(req request) (result, error) {
	switch req.Fn {
	case "ParseDuration":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return fail(err), nil
		}
		return result{Out: strconv.FormatInt(int64(d), 10)}, nil
	case "Base64Decode":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		text, err := hex.DecodeString(s)
		if err != nil {
			return result{}, err
		}
		b, err := base64.StdEncoding.DecodeString(string(text))
		if err != nil {
			return fail(err), nil
		}
		return result{Out: hex.EncodeToString(b)}, nil
	case "ParseRFC3339":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return fail(err), nil
		}
		return result{Out: map[string]int64{"unix": t.Unix(), "nanos": int64(t.Nanosecond())}}, nil
	case "DurationString":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return result{}, err
		}
		return result{Out: time.Duration(n).String()}, nil
	case "Quote":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		return result{Out: strconv.Quote(s)}, nil
	case "ParseRequestURI", "Parse":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		parse := url.ParseRequestURI
		if req.Fn == "Parse" {
			parse = url.Parse
		}
		u, err := parse(s)
		if err != nil {
			return fail(err), nil
		}
		out := parsedURL{
			Scheme: u.Scheme, Opaque: u.Opaque, Host: hex.EncodeToString([]byte(u.Host)),
			Path: hex.EncodeToString([]byte(u.Path)), RawQuery: u.RawQuery,
			ForceQuery: u.ForceQuery, OmitHost: u.OmitHost, String: u.String(),
		}
		if u.User != nil {
			p, set := u.User.Password()
			out.User = &userInfo{
				Username:    hex.EncodeToString([]byte(u.User.Username())),
				Password:    hex.EncodeToString([]byte(p)),
				PasswordSet: set,
			}
		}
		return result{Out: out}, nil
	case "ParseQuery":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		values, err := url.ParseQuery(s)
		out := map[string]any{"values": map[string][]string{}, "err": nil}
		hexed := map[string][]string{}
		for k, vs := range values {
			for _, v := range vs {
				hexed[hex.EncodeToString([]byte(k))] = append(hexed[hex.EncodeToString([]byte(k))], hex.EncodeToString([]byte(v)))
			}
		}
		out["values"] = hexed
		if err != nil {
			out["err"] = err.Error()
		}
		return result{Out: out}, nil
	case "Aggregate":
		var list []json.RawMessage
		if err := json.Unmarshal(req.In, &list); err != nil {
			return result{}, err
		}
		agg, err := aggregate(list)
		if err != nil {
			return result{}, err
		}
		if agg == nil {
			return result{Out: nil}, nil
		}
		return result{Out: agg.Error()}, nil
	case "Chain":
		e, err := item(req.In)
		if err != nil {
			return result{}, err
		}
		if e == nil {
			return result{Out: nil}, nil
		}
		return result{Out: e.Error()}, nil
	case "FormatLabelSelector", "LabelSelectorAsSelector":
		var sel *metav1.LabelSelector
		if err := json.Unmarshal(req.In, &sel); err != nil {
			return result{}, err
		}
		if req.Fn == "FormatLabelSelector" {
			return result{Out: metav1.FormatLabelSelector(sel)}, nil
		}
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			return fail(err), nil
		}
		return result{Out: s.String()}, nil
	case "SelectorMatches":
		var in struct {
			Selector *metav1.LabelSelector `json:"selector"`
			Labels   map[string]string     `json:"labels"`
		}
		if err := json.Unmarshal(req.In, &in); err != nil {
			return result{}, err
		}
		s, err := metav1.LabelSelectorAsSelector(in.Selector)
		if err != nil {
			return fail(err), nil
		}
		if s.Empty() {
			return result{Out: true}, nil
		}
		return result{Out: s.Matches(labels.Set(in.Labels))}, nil
	case "Names":
		var s string
		if err := json.Unmarshal(req.In, &s); err != nil {
			return result{}, err
		}
		return result{Out: names{
			DNS1123Label:     validation.IsDNS1123Label(s),
			DNS1123Subdomain: validation.IsDNS1123Subdomain(s),
			DNS1035Label:     validation.IsDNS1035Label(s),
			QualifiedName:    validation.IsQualifiedName(s),
			LabelValue:       validation.IsValidLabelValue(s),
		}}, nil
	case "PortNum":
		var n int
		if err := json.Unmarshal(req.In, &n); err != nil {
			return result{}, err
		}
		return result{Out: validation.IsValidPortNum(n)}, nil
	case "Proxy":
		var c proxyCase
		if err := json.Unmarshal(req.In, &c); err != nil {
			return result{}, err
		}
		return proxy(c)
	case "WireDecode", "WireFill":
		return runWire(req)
	case "WirePointerZeros":
		return runPointerZeros(req)
	case "Admission":
		var c admissionCase
		if err := json.Unmarshal(req.In, &c); err != nil {
			return result{}, err
		}
		return admit(c)
	case "AdmissionHTTP":
		var c admissionHTTPCase
		if err := json.Unmarshal(req.In, &c); err != nil {
			return result{}, err
		}
		return admitHTTP(c)
	case "VerifyChain":
		var c verifyCase
		if err := json.Unmarshal(req.In, &c); err != nil {
			return result{}, err
		}
		return verifyChain(c)
	case "ValidateExtensionConfig":
		var c webhookCase
		if err := json.Unmarshal(req.In, &c); err != nil {
			return result{}, err
		}
		return validateExtensionConfig(c)
	}
	return result{}, fmt.Errorf("unknown function %q", req.Fn)
}

func validateExtensionConfig(c webhookCase) (result, error) {
	var config runtimev1.ExtensionConfig
	if err := json.Unmarshal(c.Object, &config); err != nil {
		return fail(err), nil
	}
	gate := fmt.Sprintf("%s=%t", feature.RuntimeSDK, c.Gate)
	if err := feature.MutableGates.Set(gate); err != nil {
		return result{}, err
	}
	webhook := &admission.ExtensionConfig{}
	ctx := context.Background()
	if err := webhook.Default(ctx, &config); err != nil {
		return result{}, err
	}
	defaulted, err := json.Marshal(&config)
	if err != nil {
		return result{}, err
	}
	out := webhookResult{Defaulted: defaulted}
	if _, err := webhook.ValidateCreate(ctx, &config); err != nil {
		text := err.Error()
		out.Error = &text
		var status apierrors.APIStatus
		if errors.As(err, &status) {
			s := status.Status()
			out.Status = &s
		}
	}
	return result{Out: out}, nil
}

type admissionCase struct {
	Webhook string                       `json:"webhook"`
	Gate    bool                         `json:"gate"`
	Request admissionv1.AdmissionRequest `json:"request"`
}

// admit runs a request through the webhooks as Cluster API's manager registers them
// (controller-runtime's typed defaulter and validator around Cluster API's webhook).
func admit(c admissionCase) (result, error) {
	handler, err := admissionWebhook(c.Webhook, c.Gate)
	if err != nil {
		return result{}, err
	}
	req := ctrladmission.Request{AdmissionRequest: c.Request}
	resp := handler.Handle(context.Background(), req)
	if err := resp.Complete(req); err != nil {
		return result{}, err
	}
	return result{Out: resp.AdmissionResponse}, nil
}

// admissionWebhook is the webhook ("mutate" or "validate") as Cluster API's
// manager registers it: controller-runtime's typed defaulter or validator around
// Cluster API's ExtensionConfig webhook, with the RuntimeSDK gate set to gate.
func admissionWebhook(name string, gate bool) (*ctrladmission.Webhook, error) {
	if err := feature.MutableGates.Set(fmt.Sprintf("%s=%t", feature.RuntimeSDK, gate)); err != nil {
		return nil, err
	}
	scheme := k8sruntime.NewScheme()
	if err := runtimev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	webhook := &admission.ExtensionConfig{}
	switch name {
	case "mutate":
		return ctrladmission.WithDefaulter[*runtimev1.ExtensionConfig](scheme, webhook), nil
	case "validate":
		return ctrladmission.WithValidator[*runtimev1.ExtensionConfig](scheme, webhook), nil
	}
	return nil, fmt.Errorf("unknown webhook %q", name)
}

type proxyCase struct {
	Env map[string]string `json:"env"`
	URL string            `json:"url"`
}

type proxyConfig struct {
	HTTPProxy  string `json:"httpProxy"`
	HTTPSProxy string `json:"httpsProxy"`
	NoProxy    string `json:"noProxy"`
	CGI        bool   `json:"cgi"`
}

type proxyAnswer struct {
	Proxy *string `json:"proxy"`
	Err   *string `json:"err"`
}

type proxyResult struct {
	Config     proxyConfig `json:"config"`
	Go         proxyAnswer `json:"go"`
	ClusterAPI proxyAnswer `json:"clusterApi"`
}

// The variables httpproxy.FromEnvironment and NewProxierWithNoProxyCIDR read.
var proxyVariables = []string{
	"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "REQUEST_METHOD",
}

func answer(u *url.URL, err error) proxyAnswer {
	var a proxyAnswer
	if u != nil {
		s := u.String()
		a.Proxy = &s
	}
	if err != nil {
		s := err.Error()
		a.Err = &s
	}
	return a
}

// proxy sets the process environment to the case's (this program is its only reader) and
// asks both proxy functions built from it.
func proxy(c proxyCase) (result, error) {
	for _, name := range proxyVariables {
		if err := os.Unsetenv(name); err != nil {
			return result{}, err
		}
	}
	for name, value := range c.Env {
		if err := os.Setenv(name, value); err != nil {
			return result{}, err
		}
	}
	u, err := url.ParseRequestURI(c.URL)
	if err != nil {
		return result{}, err
	}
	cfg := httpproxy.FromEnvironment()
	goFunc := cfg.ProxyFunc()
	capi := utilnet.NewProxierWithNoProxyCIDR(func(req *http.Request) (*url.URL, error) {
		return goFunc(req.URL)
	})
	return result{Out: proxyResult{
		Config:     proxyConfig{HTTPProxy: cfg.HTTPProxy, HTTPSProxy: cfg.HTTPSProxy, NoProxy: cfg.NoProxy, CGI: cfg.CGI},
		Go:         answer(goFunc(u)),
		ClusterAPI: answer(capi(&http.Request{URL: u})),
	}}, nil
}

type verifyCase struct {
	CABundle   string   `json:"caBundle"`
	Chain      []string `json:"chain"`
	ServerName string   `json:"serverName"`
	Time       int64    `json:"time"`
}

// verifyChain judges a server's chain as Cluster API's runtime client does: the TLS
// configuration from transport.TLSConfigFor, then the steps of crypto/tls's
// verifyServerCertificate (not exported) for a client that does not skip verification.
func verifyChain(c verifyCase) (result, error) {
	config, err := transport.TLSConfigFor(&transport.Config{TLS: transport.TLSConfig{
		CAData:     []byte(c.CABundle),
		ServerName: c.ServerName,
	}})
	if err != nil {
		return result{Out: map[string]string{"class": "config"}, Err: ptr(err.Error())}, nil
	}
	certs := make([]*x509.Certificate, len(c.Chain))
	for i, text := range c.Chain {
		der, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return result{}, err
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			msg := "tls: failed to parse certificate from server: " + err.Error()
			return result{Out: map[string]string{"class": "parse"}, Err: &msg}, nil
		}
		certs[i] = cert
	}
	if len(certs) == 0 {
		return result{}, errors.New("VerifyChain: an empty chain")
	}
	opts := x509.VerifyOptions{
		Roots:         config.RootCAs,
		CurrentTime:   time.Unix(c.Time, 0),
		DNSName:       config.ServerName,
		Intermediates: x509.NewCertPool(),
	}
	for _, cert := range certs[1:] {
		opts.Intermediates.AddCert(cert)
	}
	if _, err := certs[0].Verify(opts); err != nil {
		verr := &tls.CertificateVerificationError{UnverifiedCertificates: certs, Err: err}
		return result{Out: map[string]string{"class": verifyClass(err)}, Err: ptr(verr.Error())}, nil
	}
	return result{Out: nil}, nil
}

// verifyClass names the kind of a Certificate.Verify error: "hostname", "unknownAuthority"
// (with ":" and the class of the hint, the reason the last candidate issuer was refused,
// when there is one), "constraintViolation" (a parent that may not sign), the
// CertificateInvalidError reason ("expired", "notAuthorizedToSign", "tooManyIntermediates",
// "incompatibleUsage", "nameConstraints", "noValidChains", ...),
// "unhandledCriticalExtension", or "other".
func verifyClass(err error) string {
	var hostname x509.HostnameError
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var critical x509.UnhandledCriticalExtension
	var constraint x509.ConstraintViolationError
	switch {
	case errors.As(err, &hostname):
		return "hostname"
	case errors.As(err, &unknown):
		// The hint is not exported; its text is in the error's.
		text := unknown.Error()
		switch {
		case strings.Contains(text, "parent certificate cannot sign"):
			return "unknownAuthority:constraintViolation"
		case strings.Contains(text, "has expired or is not yet valid"):
			return "unknownAuthority:expired"
		case strings.Contains(text, "(possibly because of"):
			return "unknownAuthority:other"
		}
		return "unknownAuthority"
	case errors.As(err, &invalid):
		switch invalid.Reason {
		case x509.NotAuthorizedToSign:
			return "notAuthorizedToSign"
		case x509.Expired:
			return "expired"
		case x509.CANotAuthorizedForThisName, x509.CANotAuthorizedForExtKeyUsage:
			return "nameConstraints"
		case x509.TooManyIntermediates:
			return "tooManyIntermediates"
		case x509.IncompatibleUsage:
			return "incompatibleUsage"
		case x509.NameMismatch:
			return "nameMismatch"
		case x509.NameConstraintsWithoutSANs:
			return "nameConstraintsWithoutSANs"
		case x509.UnconstrainedName:
			return "unconstrainedName"
		case x509.TooManyConstraints:
			return "tooManyConstraints"
		case x509.NoValidChains:
			return "noValidChains"
		}
		return fmt.Sprintf("invalid%d", invalid.Reason)
	case errors.As(err, &critical):
		return "unhandledCriticalExtension"
	case errors.As(err, &constraint):
		return "constraintViolation"
	}
	return "other"
}

func ptr(s string) *string { return &s }

// printRanges writes the ranges of code points strconv.IsPrint accepts.
func printRanges(w *bufio.Writer) error {
	var ranges [][2]rune
	start := rune(-1)
	for r := rune(0); r <= utf8.MaxRune+1; r++ {
		printable := r <= utf8.MaxRune && strconv.IsPrint(r)
		switch {
		case printable && start < 0:
			start = r
		case !printable && start >= 0:
			ranges = append(ranges, [2]rune{start, r - 1})
			start = -1
		}
	}
	return json.NewEncoder(w).Encode(ranges)
}

// foldRune is the rune encoding/json folds r to when it matches an object key
// to a field name without regard to case: the smallest rune of r's
// unicode.SimpleFold orbit (the rule of encoding/json's own unexported helper).
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// printFolds writes every non-ASCII rune that folds to another rune, with
// that rune, as a JSON array of [rune, folded] pairs.
func printFolds(w *bufio.Writer) error {
	var pairs [][2]rune
	for r := rune(utf8.RuneSelf); r <= utf8.MaxRune; r++ {
		if f := foldRune(r); f != r {
			pairs = append(pairs, [2]rune{r, f})
		}
	}
	return json.NewEncoder(w).Encode(pairs)
}

func main() {
	ranges := flag.Bool("print-ranges", false, "print strconv.IsPrint's ranges and exit")
	folds := flag.Bool("print-folds", false, "print the runes encoding/json's key matching folds, and exit")
	values := flag.Bool("print-values", false, "print the fields of hook messages Go holds by value, and exit")
	flag.Parse()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if *values {
		if err := printValues(out); err != nil {
			fmt.Fprintln(os.Stderr, "go-rules:", err)
			os.Exit(1)
		}
		return
	}
	if *folds {
		if err := printFolds(out); err != nil {
			fmt.Fprintln(os.Stderr, "go-rules:", err)
			os.Exit(1)
		}
		return
	}
	if *ranges {
		if err := printRanges(out); err != nil {
			fmt.Fprintln(os.Stderr, "go-rules:", err)
			os.Exit(1)
		}
		return
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	line := 0
	for in.Scan() {
		line++
		text := strings.TrimSpace(in.Text())
		if text == "" {
			continue
		}
		var req request
		if err := json.Unmarshal([]byte(text), &req); err != nil {
			fmt.Fprintf(os.Stderr, "go-rules: line %d: %v\n", line, err)
			os.Exit(2)
		}
		res, err := run(req)
		if err != nil {
			fmt.Fprintf(os.Stderr, "go-rules: line %d (%s): %v\n", line, req.Fn, err)
			os.Exit(2)
		}
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(os.Stderr, "go-rules: line %d: %v\n", line, err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "go-rules:", err)
		os.Exit(2)
	}
}
