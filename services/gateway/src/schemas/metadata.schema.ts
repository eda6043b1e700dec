import { z } from './zod-openapi';

/** §8 limits on payment metadata. */
export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

const PROPERTY_NAMES = { propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.maxKeyLength } };

export const MetadataSchema = z
  .record(z.string(), z.string().max(METADATA_LIMITS.maxValueLength))
  .superRefine((metadata, ctx) => {
    const keys = Object.keys(metadata);
    if (keys.length > METADATA_LIMITS.maxKeys) {
      ctx.addIssue({
        code: 'custom',
        message:
          `O campo metadata aceita no máximo ${METADATA_LIMITS.maxKeys} chaves (recebidas: ${keys.length}). ` +
          'Remova as chaves excedentes.',
      });
      return;
    }
    for (const key of keys) {
      if (key.length === 0 || key.length > METADATA_LIMITS.maxKeyLength) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message:
            `As chaves de metadata devem ter de 1 a ${METADATA_LIMITS.maxKeyLength} caracteres; ` +
            `a chave "${key.slice(0, 60)}" tem ${key.length}. Use uma chave mais curta.`,
        });
        return;
      }
    }
  })
  .openapi('Metadata', {
    description: 'Pares chave-valor de texto guardados no pagamento e usados pelas regras de roteamento.',
    maxProperties: METADATA_LIMITS.maxKeys,
    // JSON Schema 2020-12 keyword (valid in OpenAPI 3.1), missing from the library's 3.0-era types.
    ...(PROPERTY_NAMES as object),
    example: { order_id: '10293', telegram_user: '55512' },
  });
