#!/usr/bin/env bash
# The alert rules and the scrape example through promtool: the rules as Prometheus reads them, their cases in
# alerts-test.yml, and a Prometheus configuration made of the scrape example with the rules loaded.
#
#   deploy/prometheus/check.sh        (installs promtool from Debian's prometheus package if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=scripts/common.sh
source scripts/common.sh

need promtool prometheus || fail "promtool is needed"
dir=$PWD/deploy/prometheus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

promtool check rules "$dir/alerts.yml"
promtool test rules "$dir/alerts-test.yml"

{
    cat "$dir/scrape-kubernetes.yml"
    printf 'rule_files:\n  - %s\n' "$dir/alerts.yml"
} >"$work/prometheus.yml"
if promtool check config "$work/prometheus.yml" >"$work/check.log" 2>&1; then
    cat "$work/check.log"
    exit 0
fi
# Debian builds Prometheus without Kubernetes discovery, so its promtool rejects kubernetes_sd_configs. The same job
# with a static target in its place still checks the rest: the relabelling and the rules. (The deploy module's
# tests run that relabelling on the gateway's pod.)
if ! grep -q 'field kubernetes_sd_configs not found' "$work/check.log"; then
    cat "$work/check.log" >&2
    fail "the scrape example with the rules is not a valid Prometheus configuration"
fi
log "this promtool has no Kubernetes discovery: checking the scrape example with a static target in its place"
sed -e 's/^\( *\)kubernetes_sd_configs:$/\1static_configs:/' \
    -e 's/^\( *\)- role: pod$/\1- targets: [gateway.invalid:8081]/' "$work/prometheus.yml" >"$work/static.yml"
if grep -q 'kubernetes_sd_configs' "$work/static.yml" || ! grep -q 'gateway.invalid' "$work/static.yml"; then
    fail "the scrape example no longer has the kubernetes_sd_configs block this check replaces"
fi
promtool check config "$work/static.yml"
