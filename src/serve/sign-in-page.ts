/**
 * The sign-in page of `agentmark serve`: a form that posts a token to /sign-in. Nothing from a
 * request is written into it (the messages are fixed texts), its style comes from
 * /sign-in.css, and it runs no script.
 */
export type SignInNotice = 'none' | 'wrong' | 'limited' | 'signed-out';

const NOTICES: Record<SignInNotice, string> = {
  none: '',
  wrong: '<p class="notice" role="alert">That token is not valid (mistyped, revoked, or from another server).</p>',
  limited: '<p class="notice" role="alert">Too many failed sign-ins from this address: wait a minute, then try again.</p>',
  'signed-out': '<p class="notice ok" role="status">Signed out.</p>',
};

export function signInPage(notice: SignInNotice): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign in · agentmark serve</title>
<link rel="stylesheet" href="/sign-in.css">
</head>
<body>
<main>
<form method="post" action="/sign-in" class="sign-in">
<h1>agentmark</h1>
<p class="lead">Sign in with the token your team's admin gave you.</p>
${NOTICES[notice]}
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="current-password" spellcheck="false" required autofocus>
<button type="submit">Sign in</button>
<p class="hint">An admin makes one with <code>agentmark tokens create --name &lt;you&gt; --role reviewer</code>.</p>
</form>
</main>
</body>
</html>
`;
}

/** Same colours as the viewer (web/src/style.css), light and dark. */
export const SIGN_IN_CSS = `:root { color-scheme: light dark; --bg: #ffffff; --fg: #16181d; --muted: #555b66; --line: #d5d9e0; --panel: #f5f6f8; --accent: #1f57c3; --fail: #a3161d; --fail-bg: #fbe2e3; --pass: #126b2f; --pass-bg: #dff3e4; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #121418; --fg: #e8eaee; --muted: #a6adba; --line: #343944; --panel: #1b1e24; --accent: #8ab4ff; --fail: #ff9ea3; --fail-bg: #451a1d; --pass: #7ee2a0; --pass-bg: #163823; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
main { min-height: 100vh; display: flex; align-items: flex-start; justify-content: center; padding: 12vh 1rem 2rem; }
.sign-in { width: 100%; max-width: 24rem; display: flex; flex-direction: column; gap: 0.6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); padding: 1.4rem 1.5rem; }
h1 { font-size: 1.5rem; margin: 0; }
.lead, .hint { margin: 0; color: var(--muted); }
.hint { font-size: 0.82rem; overflow-wrap: anywhere; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
label { font-weight: 600; margin-top: 0.4rem; }
input { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 5px; padding: 0.45rem 0.6rem; width: 100%; }
button { font: inherit; font-weight: 600; color: #ffffff; background: var(--accent); border: 0; border-radius: 5px; padding: 0.5rem 0.8rem; cursor: pointer; }
@media (prefers-color-scheme: dark) { button { color: #121418; } }
input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.notice { margin: 0; padding: 0.45rem 0.6rem; border-radius: 5px; color: var(--fail); background: var(--fail-bg); }
.notice.ok { color: var(--pass); background: var(--pass-bg); }
`;

/** The sign-in page may post its form to this server, and nothing else. */
export const SIGN_IN_CSP = ["default-src 'none'", "style-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"].join('; ');
