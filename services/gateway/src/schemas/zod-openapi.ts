import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds `.openapi()` to zod. Every schema file imports `z` from here, so the extension is in place
// before any schema is built, and the same schema objects serve validation and the OpenAPI document.
extendZodWithOpenApi(z);

export { z };
