/**
 * A webhook body as every provider sends it: one JSON object. Anything else (not JSON, an array,
 * a bare value) is malformed, which the intake answers 400.
 */
export function webhookObject(rawBody: Buffer, parse: (text: string) => unknown = JSON.parse): Record<string, unknown> | undefined {
  let body: unknown;
  try {
    body = parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}
