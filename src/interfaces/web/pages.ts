// The server-rendered HTML of the web UI: the shell every view loads into, and the login form
// (no script needed to log in). hono/html escapes every interpolated value.
import { html } from 'hono/html';

export interface Assets {
  /** Hashed file names under /assets/. */
  js: string;
  css: string;
}

/** The page the client app mounts into; `csrf` is '' in open loopback mode (no session). */
export function shellPage(assets: Assets | null, csrf: string, session: 'cookie' | 'open') {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="cairn-csrf" content="${csrf}">
<meta name="cairn-session" content="${session}">
<link rel="icon" href="data:,">
<title>Cairn</title>
${assets ? html`<link rel="stylesheet" href="/assets/${assets.css}">
<script type="module" src="/assets/${assets.js}"></script>` : ''}
</head>
<body>
<div id="app">${assets ? html`<p class="loading">Loading…</p>` : html`<main><h1>Cairn</h1><p role="alert">The web UI is not built: run "npm run build".</p></main>`}</div>
<noscript><p>The Cairn web UI needs JavaScript. The REST API is at /v1 (see /openapi.json).</p></noscript>
</body>
</html>`;
}

export function loginPage(assets: Assets | null, options: { next: string; error?: string }) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · Cairn</title>
${assets ? html`<link rel="stylesheet" href="/assets/${assets.css}">` : ''}
</head>
<body>
<main class="login">
<h1>Cairn</h1>
<form method="post" action="/login">
<p>Paste an API token (create one with <code>cairn tokens create --grant NAMESPACE</code>).</p>
${options.error ? html`<p class="error" role="alert" id="login-error">${options.error}</p>` : ''}
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus${options.error ? html` aria-describedby="login-error"` : ''}>
<input type="hidden" name="next" value="${options.next}">
<button type="submit">Log in</button>
</form>
</main>
</body>
</html>`;
}

export function errorPage(assets: Assets | null, status: number, message: string) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${String(status)} · Cairn</title>
${assets ? html`<link rel="stylesheet" href="/assets/${assets.css}">` : ''}
</head>
<body><main class="login"><h1>Cairn</h1><p role="alert">${message}</p><p><a href="/login">Log in</a></p></main></body>
</html>`;
}
