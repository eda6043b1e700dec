// Every provider adapter built from the uniform AdapterContext registers itself here. Efí is
// built directly by the factory (its mTLS options differ).

import { registerAdapter } from './adapter-factory';
import { PagarmeAdapter } from './pagarme/pagarme.adapter';

registerAdapter('pagarme', PagarmeAdapter);
