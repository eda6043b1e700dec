import { INTEGRATION_KINDS } from './ad-tool';
import { KIND_FIELDS } from '../domain/integration-input';
import { createAdTools } from './registry';

describe('createAdTools', () => {
  const tools = createAdTools({ utmifyBaseUrl: 'http://u', metaGraphBaseUrl: 'http://m', metaGraphVersion: 'v25.0', tiktokBaseUrl: 'http://t' });

  it('has one tool per kind, describing the fields the input check accepts', () => {
    for (const kind of INTEGRATION_KINDS) {
      const description = tools[kind].describe();
      expect([tools[kind].kind, description.id]).toEqual([kind, kind]);
      expect(description.credentials.map((f) => f.name)).toEqual(KIND_FIELDS[kind].credentials.map((f) => f.name));
      expect(description.options.map((f) => [f.name, f.required])).toEqual(KIND_FIELDS[kind].options.map((f) => [f.name, f.required]));
      expect(description.sends.length).toBeGreaterThan(0);
    }
    expect(tools.meta.describe().options.find((o) => o.name === 'pixel_id')?.required).toBe(true);
  });
});
