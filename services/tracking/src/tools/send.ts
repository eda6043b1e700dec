/**
 * One HTTP send of a planned request (undici): the answer is kept truncated, and how it counts
 * (delivered, refused for good, retried) is the tool's reading when it has one, else HTTP's.
 */
import { request as httpRequest } from 'undici';
import type { AdTool, ToolAnswer, ToolRequest } from './ad-tool';
import { defaultOutcome } from './tool-common';

export const ANSWER_BODY_LIMIT = 2_000;

// A token that found its way into an error text (Meta's is in the query) is cut out before keeping it.
const scrub = (text: string): string => text.replace(/access_token=[^&\s"]*/gi, 'access_token=[redacted]');
const truncate = (text: string): string => {
  const clean = scrub(text);
  return clean.length > ANSWER_BODY_LIMIT ? clean.slice(0, ANSWER_BODY_LIMIT) : clean;
};

/**
 * POSTs `request` and reads the answer. Never throws for the tool's failures: a timeout or a
 * connection error is status 0 and `retry`, with the error's code and message (never the URL,
 * which carries Meta's token) as the body.
 */
export async function sendToolRequest(request: ToolRequest, { timeoutMs, tool }: { timeoutMs: number; tool: Pick<AdTool, 'readAnswer'> }): Promise<ToolAnswer> {
  // The tool is required, not optional: TikTok's 200 with an error code read by HTTP alone would count as delivered.
  const read = (status: number, body: string): ToolAnswer['outcome'] => (tool.readAnswer ? tool.readAnswer(status, body) : defaultOutcome(status));
  try {
    const answer = await httpRequest(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await answer.body.text();
    return { outcome: read(answer.statusCode, body), status: answer.statusCode, body: truncate(body) };
  } catch (err) {
    const error = err as { code?: string; name?: string; message?: string };
    const kind = error.name === 'TimeoutError' || error.code === 'UND_ERR_HEADERS_TIMEOUT' || error.code === 'UND_ERR_BODY_TIMEOUT' ? 'timeout' : 'connection_error';
    // undici's messages name the failure, not the address; the URL (Meta's token) is never included.
    const detail = error.code ?? error.name ?? 'error';
    return { outcome: read(0, ''), status: 0, body: truncate(`${kind}: ${detail}${error.message ? ` (${error.message})` : ''}`) };
  }
}
