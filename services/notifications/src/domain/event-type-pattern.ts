import { EVENT_RESOURCES, isPublicEventType } from '@orquestra/contracts';

/**
 * Which events an endpoint (or a GET /v1/events `type` filter) asks for. A pattern is `*` (every
 * event), `<resource>.*` (every event of one resource, e.g. `payment.*`) or one type of the
 * catalogue (`payment.succeeded`).
 */
export function isValidEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return EVENT_RESOURCES.includes(pattern.slice(0, -2));
  return isPublicEventType(pattern);
}

export function matchesEventPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function matchesAnyPattern(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => matchesEventPattern(pattern, type));
}
