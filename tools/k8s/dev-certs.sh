#!/usr/bin/env bash
# Throwaway secrets for docker-compose.yml, made once into a volume (the `dev-certs` service):
#   ca.pem / ca.key            test CA (providers trusts it: PROVIDER_EXTRA_CA_FILE)
#   server.pem / server.key    the Efí emulator's TLS certificate: SAN efi-emulator, localhost, 127.0.0.1
#   client.pem / client.key    a client certificate for the Efí API's mTLS (connect an Efí account with it)
#   woovi-signing.key / .pub.pem   the Woovi emulator's webhook signing key pair, stable across restarts
# Same file names as tools/infra/certs.sh; only the SANs differ (containers reach the emulator by
# its compose service name). Never use any of this outside local development.
# Usage: dev-certs.sh <dir>
set -euo pipefail

DIR="${1:?usage: dev-certs.sh <dir>}"
DAYS=825
umask 077
mkdir -p "$DIR"
cd "$DIR"

log() { printf '[dev-certs] %s\n' "$*" >&2; }

issue() {
  local name="$1" subject="$2" extensions="$3"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$name.key" 2>/dev/null
  printf '%s\n' "$extensions" >"$name.ext"
  openssl req -new -key "$name.key" -subj "$subject" |
    openssl x509 -req -CA ca.pem -CAkey ca.key -CAcreateserial -CAserial ca.srl \
      -days "$DAYS" -sha256 -extfile "$name.ext" -out "$name.pem" 2>/dev/null
  rm -f "$name.ext"
  log "issued $name.pem ($subject)"
}

if [[ -s ca.pem && -s server.pem && -s client.pem && -s woovi-signing.key ]] &&
  openssl verify -CAfile ca.pem server.pem client.pem >/dev/null 2>&1 &&
  openssl x509 -in server.pem -noout -checkend $((7 * 24 * 3600)) >/dev/null; then
  log "certificates in $DIR are valid; nothing to do"
  exit 0
fi

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out ca.key 2>/dev/null
openssl req -x509 -new -key ca.key -sha256 -days "$DAYS" \
  -subj "/O=Orquestra/CN=Orquestra Compose Test CA" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -addext "subjectKeyIdentifier=hash" \
  -out ca.pem
log "created test CA"
issue server "/O=Orquestra/CN=efi-emulator" "$(printf '%s\n' \
  'basicConstraints=critical,CA:FALSE' \
  'keyUsage=critical,digitalSignature,keyEncipherment' \
  'extendedKeyUsage=serverAuth' \
  'subjectAltName=DNS:efi-emulator,DNS:localhost,IP:127.0.0.1' \
  'authorityKeyIdentifier=keyid')"
issue client "/O=Orquestra/CN=orquestra-test-client" "$(printf '%s\n' \
  'basicConstraints=critical,CA:FALSE' \
  'keyUsage=critical,digitalSignature,keyEncipherment' \
  'extendedKeyUsage=clientAuth' \
  'authorityKeyIdentifier=keyid')"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out woovi-signing.key 2>/dev/null
openssl pkey -in woovi-signing.key -pubout -out woovi-signing.pub.pem
# Certificates and the public key are public; private keys stay owner-only (umask 077).
chmod 644 ./*.pem
log "ready in $DIR"
