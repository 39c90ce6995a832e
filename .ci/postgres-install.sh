#!/usr/bin/env bash
# Installs PostgreSQL 15 and pgvector from Debian's packages for the PostgreSQL tests (the tests
# start their own server on 127.0.0.1 from these binaries: test/helpers/postgres.ts). Debian 12
# ships no pgvector binary, so it is built from Debian trixie's source package (../STACK recipe).
# Idempotent: does nothing when both are installed.
set -euo pipefail
PGBIN=/usr/lib/postgresql/15/bin
if [ -x "$PGBIN/postgres" ] && [ -f /usr/share/postgresql/15/extension/vector.control ]; then
  echo "PostgreSQL 15 with pgvector: already installed"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
  > /etc/apt/sources.list.d/pgvector-src.sources
apt-get update -qq
apt-get install -y -qq --no-install-recommends postgresql-15 postgresql-server-dev-15 dpkg-dev make gcc >/dev/null
# The Debian package starts a cluster of its own on port 5432; the tests use their own on 55432.
BUILD=$(mktemp -d)
( cd "$BUILD" && apt-get source -qq pgvector >/dev/null 2>&1 && cd pgvector-*/ \
  && make PG_CONFIG=$PGBIN/pg_config -j2 >/dev/null && make PG_CONFIG=$PGBIN/pg_config install >/dev/null )
rm -rf "$BUILD"
echo "PostgreSQL 15 with pgvector: installed"
