import { escapeHtml as e, renderPage } from './layout';

/** Sign-in: an API key exchanged for a session cookie by the static script (POST /v1/sessions). */
export function renderLoginPage(message?: string): string {
  return renderPage({
    title: 'Countersign inbox — sign in',
    userId: null,
    body: `<h1>Sign in</h1>
<p>Paste the API key the platform issued you. It is exchanged for a session cookie and not kept by this page.</p>
${message ? `<p class="status err" id="login-error">${e(message)}</p>` : ''}
<form id="login"><label for="api-key">API key</label>
<input id="api-key" name="apiKey" type="password" size="70" autocomplete="off" placeholder="csk_…" required>
<button type="submit" id="sign-in" class="primary">Sign in</button></form>
<p class="status" id="login-status" role="status"></p>`,
  });
}
