/** The ad tools by kind, pointed at the real APIs or (test stack) at the emulators. */
import type { AdTool, IntegrationKindId } from './ad-tool';
import { MetaTool } from './meta.tool';
import { TiktokTool } from './tiktok.tool';
import { UtmifyTool } from './utmify.tool';

export interface AdToolUrls {
  utmifyBaseUrl: string;
  metaGraphBaseUrl: string;
  /** `v25.0`-style Graph API version. */
  metaGraphVersion: string;
  tiktokBaseUrl: string;
}

export function createAdTools(urls: AdToolUrls): Record<IntegrationKindId, AdTool> {
  return {
    utmify: new UtmifyTool(urls.utmifyBaseUrl),
    meta: new MetaTool(urls.metaGraphBaseUrl, urls.metaGraphVersion),
    tiktok: new TiktokTool(urls.tiktokBaseUrl),
  };
}
