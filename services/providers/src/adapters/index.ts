// Every provider adapter built from the uniform AdapterContext registers itself here. Efí is
// built directly by the factory (its mTLS options differ).
