// Every provider adapter built from the uniform AdapterContext registers itself here. Efí is
// built directly by the factory (its mTLS options differ).

import { registerAdapter } from './adapter-factory';
import { AsaasAdapter } from './asaas/asaas.adapter';
import { MercadoPagoAdapter } from './mercadopago/mercadopago.adapter';
import { PagarmeAdapter } from './pagarme/pagarme.adapter';
import { StripeAdapter } from './stripe/stripe.adapter';
import { WooviAdapter } from './woovi/woovi.adapter';

registerAdapter('asaas', AsaasAdapter);
registerAdapter('mercadopago', MercadoPagoAdapter);
registerAdapter('pagarme', PagarmeAdapter);
registerAdapter('stripe', StripeAdapter);
registerAdapter('woovi', WooviAdapter);
