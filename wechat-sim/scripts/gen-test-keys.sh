#!/usr/bin/env bash
# Generates the TEST-ONLY key material used by the WeChat simulator.
# Run once; the output is committed under wechat-sim/test-keys/.
# None of this is, or may ever become, a real WeChat credential.
set -euo pipefail

OUT="${1:-$(cd "$(dirname "$0")/.." && pwd)/test-keys}"
DAYS=7300 # ~20 years, so committed test certificates do not expire under the tests
mkdir -p "$OUT"
cd "$OUT"

# A 40-hex-digit serial whose first digit is 1-7: positive in DER, no leading zero to strip,
# and printed identically by openssl, node:crypto and @fidm/x509.
serial() {
  local hex
  hex=$(openssl rand -hex 20 | tr 'a-f' 'A-F')
  echo "$(( (RANDOM % 7) + 1 ))${hex:1}"
}

# No `head` on an endless pipe here: with pipefail its SIGPIPE would abort the script.
rand_alnum() {
  local s
  s=$(openssl rand -base64 96 | tr -dc 'A-Za-z0-9')
  echo "${s:0:$1}"
}

rand_digits() {
  local s
  s=$(openssl rand -hex 64 | tr -dc '0-9')
  echo "${s:0:$1}"
}

MCHID="1900000109"
APPID="wx$(openssl rand -hex 8)"
APP_SECRET="$(openssl rand -hex 16)"
APIV3_KEY="$(rand_alnum 32)"
MERCHANT_NAME="演出票务测试商户（仅供模拟器）"
MERCHANT_SERIAL="$(serial)"
PLATFORM_SERIAL="$(serial)"
# Real ids look like PUB_KEY_ID_ + 34 digits ("01" + mchid + more digits).
PUB_KEY_ID="PUB_KEY_ID_01${MCHID}$(rand_digits 22)"

# Merchant API certificate: the merchant signs requests with apiclient_key.pem; WeChat (here the
# simulator) verifies them with apiclient_cert.pem, whose serial is the Authorization serial_no.
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$DAYS" \
  -keyout apiclient_key.pem -out apiclient_cert.pem \
  -set_serial "0x$MERCHANT_SERIAL" \
  -subj "/C=CN/ST=Guangdong/L=Shenzhen/O=Tenpay.com TEST ONLY/OU=Tenpay.com CA Center TEST ONLY/CN=$MCHID" 2>/dev/null

# Platform certificate: the simulator signs responses/notifications with its private key in
# certificate mode; the merchant verifies with wechatpay_platform_cert.pem (serial = Wechatpay-Serial).
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$DAYS" \
  -keyout wechatpay_platform_key.pem -out wechatpay_platform_cert.pem \
  -set_serial "0x$PLATFORM_SERIAL" \
  -subj "/C=CN/ST=Guangdong/L=Shenzhen/O=Tenpay.com TEST ONLY/OU=Tenpay.com CA Center TEST ONLY/CN=Tenpay.com Root CA TEST ONLY" 2>/dev/null

# WeChat Pay public-key mode: a bare RSA key pair identified by PUB_KEY_ID_..., no certificate.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out pub_key_private.pem 2>/dev/null
openssl pkey -in pub_key_private.pem -pubout -out pub_key.pem

cat > config.json <<JSON
{
  "_comment": "TEST-ONLY credentials for the local WeChat simulator. Never real, never for production.",
  "appid": "$APPID",
  "appSecret": "$APP_SECRET",
  "mchid": "$MCHID",
  "merchantName": "$MERCHANT_NAME",
  "apiV3Key": "$APIV3_KEY",
  "merchantSerial": "$MERCHANT_SERIAL",
  "platformSerial": "$PLATFORM_SERIAL",
  "publicKeyId": "$PUB_KEY_ID"
}
JSON

echo "test keys written to $OUT"
