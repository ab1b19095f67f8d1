// The browser check of the built site (run by `cargo xtask site-check`).
//
// Serves SITE_DIR on 127.0.0.1 with a port the OS picks, then drives the system Chromium
// (CHROMIUM) through playwright-core:
//   1. the landing page, the book's index, a hook page of the book and the API reference load
//      with no console error, no page error and no failed request; any request to a host other
//      than the local server is aborted and counted as failed (the site must work offline);
//   2. the API reference shows every hook path of the OpenAPI document (HOOK_PATHS, read by
//      xtask from the document) and, for one hook, its request body schema with every
//      property of the request (REQUEST_CHECK);
//   3. every internal link (href/src) of every HTML page of the site resolves to a file, and
//      a fragment pointing into a book page names an element id of that page;
//   4. screenshots of three pages are written to SCREENSHOT_DIR.
// Exit status 0 means every check passed; each failure is printed.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const { chromium } = require('playwright-core');

const SITE = path.resolve(process.env.SITE_DIR);
const SHOTS = process.env.SCREENSHOT_DIR;
const HOOK_PATHS = JSON.parse(process.env.HOOK_PATHS);
const REQUEST_CHECK = JSON.parse(process.env.REQUEST_CHECK);

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2',
  '.woff': 'font/woff', '.ttf': 'font/ttf', '.json': 'application/json', '.txt': 'text/plain',
  '.ico': 'image/x-icon', '.yaml': 'text/yaml',
};

const failures = [];
const fail = (message) => { failures.push(message); console.error(`FAIL ${message}`); };

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.join(SITE, decodeURIComponent(url.pathname));
    if (!file.startsWith(SITE)) { res.writeHead(403); res.end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Loads `url` and reports console errors, page errors and failed requests of that page.
async function load(browser, origin, url, name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure() && r.failure().errorText})`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.route('**/*', (route) => {
    const target = route.request().url();
    if (target.startsWith(origin) || target.startsWith('data:') || target.startsWith('blob:')) return route.continue();
    problems.push(`request to another host: ${target}`);
    return route.abort();
  });
  const response = await page.goto(origin + url, { waitUntil: 'load' });
  if (!response || response.status() !== 200) problems.push(`status ${response && response.status()}`);
  await page.waitForLoadState('networkidle');
  for (const p of problems) fail(`${name} (${url}): ${p}`);
  console.log(`ok   ${name} loads (${url})${problems.length ? ` with ${problems.length} problem(s)` : ''}`);
  return page;
}

function htmlFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(p));
    else if (entry.name.endsWith('.html')) out.push(p);
  }
  return out;
}

const idCache = new Map();
function idsOf(file) {
  if (!idCache.has(file)) {
    const text = fs.readFileSync(file, 'utf8');
    const ids = new Set();
    for (const m of text.matchAll(/\s(?:id|name)="([^"]*)"/g)) ids.add(m[1]);
    idCache.set(file, ids);
  }
  return idCache.get(file);
}

// Every href/src of every page that is not to another site must resolve inside the site.
function checkLinks() {
  const files = htmlFiles(SITE);
  let links = 0;
  const foreign = new Set();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    // The reference page is one bundled script; its links are rendered at run time and the
    // browser part checks it. Scripts in rustdoc pages build URLs too, so only attributes count.
    if (file === path.join(SITE, 'api', 'index.html')) continue;
    const html = text.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, (s) => s.slice(0, s.indexOf('>') + 1));
    for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const link = m[1].replace(/&amp;/g, '&');
      if (link === '' || /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(link)) continue; // another scheme or host
      const [pathPart, fragment] = link.split('#', 2);
      const inRustdoc = file.startsWith(path.join(SITE, 'rustdoc') + path.sep);
      // Rustdoc copies the docs of other crates' blanket impls (tracing's `WithSubscriber`)
      // with their intra-doc links unresolved, as text such as `dispatcher#...`; our own crates
      // are held to resolved links by `-D rustdoc::broken_intra_doc_links`. Rustdoc also asks
      // for `trait.impl/*.js` lists of implementors in other crates, which exist only when
      // there are such implementors.
      if (inRustdoc && pathPart !== '' && !/\.[a-z]+$/i.test(pathPart) && !pathPart.endsWith('/')) { foreign.add(link); continue; }
      if (inRustdoc && /(?:^|\/)(?:trait|type)\.impl\//.test(pathPart) && pathPart.endsWith('.js')) { foreign.add(link); continue; }
      links += 1;
      const clean = decodeURIComponent(pathPart.split('?')[0]);
      let target = clean === '' ? file
        : clean.startsWith('/') ? path.join(SITE, clean) : path.resolve(path.dirname(file), clean);
      if (fs.existsSync(target) && fs.statSync(target).isDirectory()) target = path.join(target, 'index.html');
      const from = path.relative(SITE, file);
      if (!target.startsWith(SITE)) { fail(`link leaves the site: ${from} -> ${link}`); continue; }
      if (!fs.existsSync(target)) { fail(`broken link: ${from} -> ${link}`); continue; }
      const inBook = target.startsWith(path.join(SITE, 'book') + path.sep);
      if (fragment && inBook && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(fragment))) {
        fail(`broken fragment: ${from} -> ${link}`);
      }
    }
  }
  console.log(`ok   link check: ${links} internal links in ${files.length} pages` +
    (foreign.size ? `; not checked: ${foreign.size} rustdoc references to other crates' docs or implementor lists, e.g. ${[...foreign].slice(0, 2).join(', ')}` : ''));
  if (files.length < 10 || links < 100) fail(`link check saw too little (${files.length} pages, ${links} links)`);
}

async function main() {
  const server = await serve();
  const origin = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox'] });
  try {
    await load(browser, origin, 'index.html', 'landing page');

    const book = await load(browser, origin, 'book/index.html', "the book's index");
    const title = await book.title();
    if (!/Runtime SDK/.test(title)) fail(`book index title is ${JSON.stringify(title)}`);
    await book.screenshot({ path: path.join(SHOTS, 'book-index.png') });

    const hookPage = await load(browser, origin, 'book/extension/lifecycle.html', 'a hook page of the book');
    const code = await hookPage.locator('pre code').count();
    if (code < 1) fail('the lifecycle hook page shows no code sample');
    const highlighted = await hookPage.locator('pre code.hljs, pre code.language-rust').count();
    if (highlighted < 1) fail('the lifecycle hook page has no Rust sample');
    await hookPage.screenshot({ path: path.join(SHOTS, 'book-lifecycle-hooks.png') });

    const api = await load(browser, origin, 'api/index.html', 'the API reference');
    await api.waitForSelector('[data-section-id], .api-content', { timeout: 30000 });
    const text = await api.evaluate(() => document.body.textContent);
    let shown = 0;
    for (const p of HOOK_PATHS) {
      if (text.includes(p)) shown += 1; else fail(`the API reference does not show the path ${p}`);
    }
    console.log(`ok   the API reference shows ${shown} of ${HOOK_PATHS.length} hook paths`);
    if (HOOK_PATHS.length < 2) fail('no hook paths were read from the OpenAPI document');

    // One hook's request: follow the reference's own link to the operation, then find its
    // request body and, in it, every property of the request schema.
    const op = REQUEST_CHECK.operationId.toLowerCase();
    await api.locator(`a[href$="/${op}"]`).first().click();
    const section = api.locator(`[data-section-id$="/${op}"]`).first();
    await section.waitFor({ timeout: 30000 });
    const body = api.locator(`[id$="/${op}/request/body"]`).first();
    await body.waitFor({ timeout: 30000 });
    const bodyText = await body.evaluate((e) => e.textContent);
    if (!/application\/json/.test(bodyText)) fail(`${REQUEST_CHECK.operationId}: the request body is not shown as application/json`);
    for (const property of REQUEST_CHECK.properties) {
      const row = api.locator(`[id$="/${op}/t=request&path=${property.toLowerCase()}"]`).first();
      if ((await row.count()) === 0) { fail(`${REQUEST_CHECK.operationId}: request property ${property} not shown`); continue; }
      const rowText = await row.evaluate((e) => e.textContent);
      if (!rowText.includes(property)) fail(`${REQUEST_CHECK.operationId}: the row of ${property} reads ${JSON.stringify(rowText.slice(0, 80))}`);
    }
    console.log(`ok   ${REQUEST_CHECK.operationId}: request body schema with ${REQUEST_CHECK.properties.join(', ')}`);
    await section.evaluate((e) => e.scrollIntoView());
    await api.screenshot({ path: path.join(SHOTS, 'api-reference.png') });
  } finally {
    await browser.close();
    server.close();
  }
  checkLinks();
  if (failures.length) {
    console.error(`site check: ${failures.length} failure(s)`);
    process.exit(1);
  }
  console.log(`site check: every check passed; screenshots in ${SHOTS}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
