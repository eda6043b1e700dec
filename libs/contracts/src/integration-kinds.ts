/**
 * The ad tools an integration can send sales to (GET /v1/integration-kinds): the attribution tool
 * (Utmify orders API), Meta Conversions API, TikTok Events API. One list for the gateway's
 * validation and the tracking service's tools.
 */
export const INTEGRATION_KINDS = ['utmify', 'meta', 'tiktok'] as const;
export type IntegrationKindId = (typeof INTEGRATION_KINDS)[number];
