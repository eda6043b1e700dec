import { z } from './zod-openapi';

/** Ids are prefix + opaque text; anything else cannot exist, so it is a 404 without a downstream call. */
const ID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;

export const PaymentIdSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id do pagamento.', example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const PaymentIdParamsSchema = z.object({ id: PaymentIdSchema });

export const QrCodeParamsSchema = z.object({ paymentId: PaymentIdSchema });

export const ProviderAccountIdSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id da conta de provedor conectada.', example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const WebhookParamsSchema = z.object({ accountId: ProviderAccountIdSchema });

export const WebhookSubPathParamsSchema = z.object({
  accountId: ProviderAccountIdSchema,
  subPath: z.string().openapi({ description: 'Caminho que o provedor acrescenta (a Efí acrescenta "pix").', example: 'pix' }),
});

export const ProviderAccountIdParamsSchema = z.object({ id: ProviderAccountIdSchema });

export const RoutingRuleIdPathSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id da regra de roteamento.', example: 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const RoutingRuleIdParamsSchema = z.object({ id: RoutingRuleIdPathSchema });

export const DisputeIdPathSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id da disputa.', example: 'dp_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const DisputeIdParamsSchema = z.object({ id: DisputeIdPathSchema });

export const WebhookEndpointIdParamsSchema = z.object({
  id: z.string().regex(ID_SHAPE).openapi({ description: 'Id do endpoint de webhook.', example: 'we_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
});

export const WebhookDeliveryIdParamsSchema = z.object({
  id: z.string().regex(ID_SHAPE).openapi({ description: 'Id da entrega de webhook.', example: 'whd_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
});

export const EventIdParamsSchema = z.object({
  id: z.string().regex(ID_SHAPE).openapi({ description: 'Id do evento.', example: 'evt_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
});

export const CustomerIdPathSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id do cliente.', example: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const CustomerIdParamsSchema = z.object({ id: CustomerIdPathSchema });

export const SubscriptionIdPathSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id da assinatura.', example: 'sub_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const SubscriptionIdParamsSchema = z.object({ id: SubscriptionIdPathSchema });

export const PayoutIdPathSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id do repasse.', example: 'po_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const PayoutIdParamsSchema = z.object({ id: PayoutIdPathSchema });

export const SubaccountIdPathSchema = z
  .string()
  .regex(ID_SHAPE)
  .openapi({ description: 'Id da subconta.', example: 'sub_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const SubaccountIdParamsSchema = z.object({ id: SubaccountIdPathSchema });
