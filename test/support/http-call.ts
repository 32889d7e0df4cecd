// A contract call over browser mode's real HTTP transport, answered with its status: tests that check what
// the wire says (status codes, error kinds), not only what the client makes of it.
export interface HttpCallResult {
  status: number;
  body: { ok: boolean; result?: unknown; error?: { code?: string; message: string; holder?: { pid: number; activity: string } } };
}

export async function httpCall(server: { url: string; token: string }, name: string, body: unknown): Promise<HttpCallResult> {
  const r = await fetch(`${server.url}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-loci-token': server.token },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as HttpCallResult['body'] };
}
