#!/usr/bin/env bash
# Test PKI for local mTLS (the Efí Pix API, and so its emulator, requires client certificates).
# Generates into <repo>/.local/certs/ (or $CERTS_DIR), only what is missing or no longer valid:
#   ca.pem / ca.key          test CA
#   server.pem / server.key  CN=localhost, SAN DNS:localhost, IP:127.0.0.1, signed by the CA
#   client.pem / client.key  CN=orquestra-test-client, signed by the CA
# Certificates are valid for 825 days (the longest lifetime clients such as macOS accept).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="${CERTS_DIR:-$ROOT/.local/certs}"
DAYS=825
# Renew when less than this is left, so a run never hands out a certificate about to expire.
MIN_SECONDS_LEFT=$((7 * 24 * 3600))

log() { printf '[certs] %s\n' "$*" >&2; }
die() { printf '[certs] ERROR: %s\n' "$*" >&2; exit 1; }

command -v openssl >/dev/null || die "the openssl CLI is missing (Debian: apt-get install -y openssl)"
mkdir -p "$DIR"
umask 077

# A leaf is usable when its files exist, its key matches, the CA verifies it and it is not expiring.
cert_ok() {
  local name="$1" purpose="$2"
  [[ -s "$DIR/$name.pem" && -s "$DIR/$name.key" ]] || return 1
  openssl x509 -in "$DIR/$name.pem" -noout -checkend "$MIN_SECONDS_LEFT" >/dev/null 2>&1 || return 1
  [[ "$(openssl x509 -in "$DIR/$name.pem" -noout -pubkey 2>/dev/null)" == "$(openssl pkey -in "$DIR/$name.key" -pubout 2>/dev/null)" ]] || return 1
  [[ "$name" == ca ]] && return 0
  openssl verify -purpose "$purpose" -CAfile "$DIR/ca.pem" "$DIR/$name.pem" >/dev/null 2>&1
}

new_key() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" 2>/dev/null; }

# Signs a CSR for $1 with the CA, using the extension lines in $3.
issue() {
  local name="$1" subject="$2" extensions="$3" ext
  new_key "$DIR/$name.key"
  ext="$(mktemp)"
  printf '%s\n' "$extensions" >"$ext"
  openssl req -new -key "$DIR/$name.key" -subj "$subject" |
    openssl x509 -req -CA "$DIR/ca.pem" -CAkey "$DIR/ca.key" -CAcreateserial -CAserial "$DIR/ca.srl" \
      -days "$DAYS" -sha256 -extfile "$ext" -out "$DIR/$name.pem" 2>/dev/null
  rm -f "$ext"
  log "issued $DIR/$name.pem ($subject)"
}

renewed_ca=0
if ! cert_ok ca ""; then
  new_key "$DIR/ca.key"
  openssl req -x509 -new -key "$DIR/ca.key" -sha256 -days "$DAYS" \
    -subj "/O=Orquestra/CN=Orquestra Test CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -addext "subjectKeyIdentifier=hash" \
    -out "$DIR/ca.pem"
  renewed_ca=1
  log "created test CA $DIR/ca.pem"
fi

# A new CA invalidates every leaf, even ones that still look fine on disk.
if ((renewed_ca)) || ! cert_ok server sslserver; then
  issue server "/O=Orquestra/CN=localhost" "$(printf '%s\n' \
    'basicConstraints=critical,CA:FALSE' \
    'keyUsage=critical,digitalSignature,keyEncipherment' \
    'extendedKeyUsage=serverAuth' \
    'subjectAltName=DNS:localhost,IP:127.0.0.1' \
    'authorityKeyIdentifier=keyid')"
fi

if ((renewed_ca)) || ! cert_ok client sslclient; then
  issue client "/O=Orquestra/CN=orquestra-test-client" "$(printf '%s\n' \
    'basicConstraints=critical,CA:FALSE' \
    'keyUsage=critical,digitalSignature,keyEncipherment' \
    'extendedKeyUsage=clientAuth' \
    'authorityKeyIdentifier=keyid')"
fi

# Certificates are public; only keys stay owner-only (umask 077 above).
chmod 644 "$DIR"/*.pem
log "certificates ready in $DIR"
