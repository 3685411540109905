// Talking to the page that frames the marketplace (docs/marketplace.md, "postMessage"): the
// content's height, the balance after each action, and the session's end, sent only to the
// framing page's origin, and only when that origin is one the establishment allows; and a fresh
// session from it, accepted only from that origin.
export type HostMessage =
  | { type: 'rewards:height'; height: number }
  | { type: 'rewards:balance'; balance: number; coinName: string }
  | { type: 'rewards:session-ended' };

const framed = window.parent !== window;

/** The framing page's origin, when the browser tells it and the establishment allows it. */
function hostOrigin(allowed: string[]): string | null {
  if (!framed) return null;
  const origin =
    window.location.ancestorOrigins?.[0] ??
    (document.referrer ? new URL(document.referrer).origin : null);
  if (!origin) return null;
  // Without an allowlist (test mode only: the server refuses framing in live), the framer itself.
  return !allowed.length || allowed.includes(origin) ? origin : null;
}

export function connectHost(allowed: string[], onSession: (token: string) => void) {
  const origin = hostOrigin(allowed);
  const post = (message: HostMessage) => {
    if (origin) window.parent.postMessage(message, origin);
  };
  window.addEventListener('message', (event: MessageEvent) => {
    if (!origin || event.origin !== origin || event.source !== window.parent) return;
    const data = event.data as { type?: unknown; token?: unknown } | null;
    if (data?.type === 'rewards:session' && typeof data.token === 'string') onSession(data.token);
  });
  if (origin) {
    let last = 0;
    const report = () => {
      const height = Math.ceil(document.documentElement.scrollHeight);
      if (height !== last) post({ type: 'rewards:height', height: (last = height) });
    };
    new ResizeObserver(report).observe(document.body);
    report();
  }
  return { post };
}
