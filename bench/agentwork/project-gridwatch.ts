// Scenario: gridwatch, Kubernetes monitoring for a power grid operator (Alma). An OOMKilled
// exporter, scrape interval and retention changed later, alert routing, Terraform state, logs.
import { a, bash, code, edit, para, read, u, type Project } from './script.js';

export const gridwatch: Project = {
  id: 'gridwatch',
  person: 'Alma',
  cwd: '/home/alma/infra/gridwatch',
  start: '2026-05-04',
  routine: {
    files: [
      { path: 'charts/grid-exporter/values.yaml', body: 'image:\n  repository: registry.grid.internal/grid-exporter\n  tag: "1.8.2"\nresources:\n  requests: { cpu: 100m, memory: 128Mi }\nserviceMonitor:\n  enabled: true' },
      { path: 'rules/frequency.rules.yml', body: 'groups:\n  - name: frequency\n    rules:\n      - alert: GridFrequencyDeviation\n        expr: abs(avg_over_time(grid_frequency_hz[2m]) - 50) > 0.2\n        for: 2m\n        labels: { severity: critical }' },
      { path: 'terraform/main.tf', body: 'module "eks" {\n  source          = "terraform-aws-modules/eks/aws"\n  version         = "~> 20.0"\n  cluster_name    = "gridwatch"\n  cluster_version = "1.30"\n}' },
      { path: 'exporter/collect.go', body: 'func (c *Collector) Collect(ch chan<- prometheus.Metric) {\n\tfor _, s := range c.substations() {\n\t\tch <- prometheus.MustNewConstMetric(powerDesc, prometheus.GaugeValue, s.Watts, s.ID)\n\t}\n}' },
    ],
    testCommand: 'make test',
    testPass: 'go test ./exporter/...\nok  \tgridwatch/exporter\t1.204s\npromtool test rules tests/alerts.test.yml\nUnit Testing:  tests/alerts.test.yml\n  SUCCESS',
    testFail: [
      {
        output: 'promtool test rules tests/alerts.test.yml\nUnit Testing:  tests/alerts.test.yml\n  FAILED:\n    alertname: GridFrequencyDeviation, time: 5m,\n        exp:[\n            0:\n              Labels:{alertname="GridFrequencyDeviation", severity="critical", substation="north-7"}\n            ],\n        got:[]\nmake: *** [Makefile:12: test] Error 1',
        fix: 'The test series started at 49.7 Hz for only 90 seconds, shorter than the rule\'s `for: 2m`; the fixture now holds the deviation for three minutes.',
        file: 'rules/frequency.rules.yml',
        before: '        for: 2m',
        after: '        for: 2m # fixtures must hold a deviation longer than this',
      },
      {
        output: '--- FAIL: TestCollectSkipsOfflineSubstations (0.00s)\n    collect_test.go:41: got 3 metrics, want 2\nFAIL\nFAIL\tgridwatch/exporter\t0.812s\nmake: *** [Makefile:11: test] Error 1',
        fix: 'Offline substations were still reported with a zero reading; `Collect` skips them now, so dashboards show a gap instead of a false 0 W.',
        file: 'exporter/collect.go',
        before: '\tfor _, s := range c.substations() {',
        after: '\tfor _, s := range c.onlineSubstations() {',
      },
    ],
    lint: { command: 'make lint', output: 'yamllint charts rules\ncharts/grid-exporter/values.yaml\n  7:1  warning  too many blank lines (2 > 1)  (empty-lines)\ngolangci-lint run ./...\nexporter/collect.go:14:2: ineffectual assignment to err (ineffassign)' },
    chores: ['bump the exporter image to 1.8.3', 'rotate the grafana admin password in the sealed secret', 'add the new substation south-12 to the inventory', 'document the on-call escalation in the runbook'],
  },
  sessions: [
    {
      day: 0,
      hour: 6,
      steps: [
        u('grid-exporter keeps restarting in monitoring ns, like every 20 min. pls look'),
        a('', [bash('kubectl describe pod -n monitoring -l app=grid-exporter | grep -A6 "Last State"', '    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Limits:\n      memory:  256Mi\n    Restart Count:  41', { key: 'gw-oom-describe' }), bash('curl -s grid-exporter.monitoring:9100/metrics | grep -c ^grid_power_watts', '48213')]),
        a(
          para(
            "It's being OOMKilled (exit 137) against its 256Mi limit, and the reason is in the second number: the exporter exposes **48,213** `grid_power_watts` series. Every smart meter is its own series because the metric carries a `meter_id` label. The Go client keeps every series it has ever seen in memory, and each scrape renders all of them into one response, so memory grows with the number of meters that have reported — it crosses 256Mi roughly 20 minutes after a restart, when the meters have all checked in once.",
            "Prometheus suffers too: 48k series per scrape from one target is most of the TSDB's head.",
            "Nobody uses per-meter data from Prometheus (the billing system reads meters directly), and the dashboards all sum by substation. So: drop the `meter_id` label and export one series per substation:",
            code('go', 'ch <- prometheus.MustNewConstMetric(powerDesc, prometheus.GaugeValue, s.Watts, s.ID) // one series per substation'),
            "That is ~140 series instead of 48k. I'd also raise the limit to 512Mi as headroom for the aggregation buffers during the first scrape after a restart.",
          ),
          [edit('charts/grid-exporter/values.yaml', '  requests: { cpu: 100m, memory: 128Mi }', '  requests: { cpu: 100m, memory: 128Mi }\n  limits: { memory: 512Mi }')],
          'gw-oom',
        ),
        u('yes, nobody needs per meter in prom. do it'),
        a('', [bash('helm upgrade grid-exporter charts/grid-exporter -n monitoring', 'Release "grid-exporter" has been upgraded. Happy Helming!\nREVISION: 14')]),
        a('Deployed (revision 14). I will check the restart count again in an hour.'),
      ],
    },
    {
      day: 6,
      hour: 10,
      branch: 'stack-pin',
      steps: [
        u('can you write down the prometheus stack setup in code? right now it was installed by hand'),
        a(
          para(
            "Moved it into `helmfile.yaml`, pinned to the chart version that is running now:",
            code('yaml', "releases:\n  - name: kps\n    namespace: monitoring\n    chart: prometheus-community/kube-prometheus-stack\n    version: 58.2.1\n    values:\n      - prometheus:\n          prometheusSpec:\n            scrapeInterval: 30s\n            retention: 15d\n            storageSpec:\n              volumeClaimTemplate:\n                spec: { resources: { requests: { storage: 50Gi } } }"),
            "These are the values the hand install used: scrape every 30 seconds, keep 15 days, 50Gi volume. `helmfile diff` shows no changes against the cluster, so the code matches reality.",
          ),
          [bash('helmfile diff', 'Comparing release=kps, chart=prometheus-community/kube-prometheus-stack\nNo differences.')],
          'gw-stack',
        ),
        u("good. I see the alertmanager image is on :latest though. we never use latest anywhere, pin a version or a digest. latest bit us in 2024 when an upstream push broke the config format", 'gw-latest'),
        a('Pinned `quay.io/prometheus/alertmanager:v0.27.0`, and added a conftest policy in `policy/images.rego` that fails CI for any image without a tag or with `:latest`.', [edit('helmfile.yaml', 'tag: latest', 'tag: v0.27.0')]),
        u('where is the terraform state btw, I want to check the lock'),
        a('', [read('terraform/backend.tf', 'terraform {\n  backend "s3" {\n    bucket         = "gridwatch-tfstate-eu"\n    key            = "cluster/terraform.tfstate"\n    region         = "eu-north-1"\n    dynamodb_table = "tf-locks"\n    encrypt        = true\n  }\n}', 'gw-tfstate')]),
        a('State is in the S3 bucket `gridwatch-tfstate-eu` (eu-north-1), key `cluster/terraform.tfstate`; the lock is the DynamoDB table `tf-locks`. No lock is held right now.'),
      ],
    },
    {
      day: 13,
      hour: 14,
      branch: 'alerting',
      steps: [
        u("yesterday's frequency dip at north-7 never alerted. it was visible on the dashboard for 6 minutes. why"),
        a('', [read('rules/frequency.rules.yml', 'groups:\n  - name: frequency\n    rules:\n      - alert: GridFrequencyDeviation\n        expr: abs(avg_over_time(grid_frequency_hz[1m]) - 50) > 0.2\n        for: 10m\n        labels: { severity: critical }')]),
        a(
          para(
            "Two things combined:",
            "1. `for: 10m` — the condition has to hold for ten minutes before the alert fires. The dip lasted six. That alone explains it.\n2. The window is `[1m]` with a 30s scrape interval, so each evaluation sees one or two samples. When a scrape is late or fails, the window has none and the expression returns no value — which **resets** the `for` timer. During the dip the exporter was slow (it was busy), so the timer reset at least twice.",
            "Fix: widen the window to two minutes (four samples at 30s, so one missed scrape cannot empty it) and fire after two minutes instead of ten:",
            code('yaml', '      - alert: GridFrequencyDeviation\n        expr: abs(avg_over_time(grid_frequency_hz[2m]) - 50) > 0.2\n        for: 2m\n        labels: { severity: critical }'),
            "Test with `promtool test rules tests/alerts.test.yml`; I added a case that replays yesterday's six-minute dip and expects the alert at minute four.",
          ),
          [edit('rules/frequency.rules.yml', '[1m]) - 50) > 0.2\n        for: 10m', '[2m]) - 50) > 0.2\n        for: 2m'), bash('promtool test rules tests/alerts.test.yml', 'Unit Testing:  tests/alerts.test.yml\n  SUCCESS')],
          'gw-missed',
        ),
        u("and the routing: critical should page whoever is on call, the rest just slack"),
        a(
          para(
            "Alertmanager routes in `alertmanager/config.yml`:",
            code('yaml', "route:\n  receiver: slack-grid\n  group_by: [alertname, substation]\n  group_wait: 30s\n  repeat_interval: 4h\n  routes:\n    - matchers: [severity=\"critical\"]\n      receiver: pagerduty-oncall\nreceivers:\n  - name: pagerduty-oncall\n    pagerduty_configs: [{ routing_key_file: /etc/alertmanager/secrets/pd-key, service: grid-oncall }]\n  - name: slack-grid\n    slack_configs: [{ channel: '#grid-alerts', send_resolved: true }]"),
            "Critical alerts page the PagerDuty service `grid-oncall`; everything else goes to `#grid-alerts` in Slack. An unresolved alert is re-sent every 4 hours. The PagerDuty key is read from a mounted secret, not from the file.",
          ),
          undefined,
          'gw-routing',
        ),
        u('perfect'),
      ],
    },
    {
      day: 27,
      hour: 9,
      steps: [
        u("news from compliance: the regulator audits us on June 30 and wants 30 days of metrics history available. also the frequency team wants finer resolution", 'gw-audit'),
        a(
          para(
            "Both live in the `kps` release in `helmfile.yaml`:",
            code('yaml', '            scrapeInterval: 15s\n            retention: 30d\n            storageSpec:\n              volumeClaimTemplate:\n                spec: { resources: { requests: { storage: 120Gi } } }'),
            "Scraping every 15 seconds instead of 30 doubles the samples, and 30 days instead of 15 doubles them again — roughly four times the disk. We use ~38Gi of the 50Gi today, so I raised the volume to 120Gi (the gp3 storage class allows online expansion, no restart of the StatefulSet needed). The new retention only takes effect going forward: by the audit on 30 June we will have a bit over 30 days of data if this is deployed this week.",
          ),
          [bash('helmfile apply', 'Upgrading release=kps, chart=prometheus-community/kube-prometheus-stack\nRelease "kps" has been upgraded. Happy Helming!')],
          'gw-retention',
        ),
        u('exporter needs to pick up the new scrape config too?'),
        a('It reads its own config at start, so yes — restarted it:', [bash('kubectl rollout restart deploy/grid-exporter -n monitoring', 'deployment.apps/grid-exporter restarted')], 'gw-restart'),
        u('thx'),
      ],
    },
    {
      day: 36,
      hour: 13,
      branch: 'logs',
      steps: [
        u('we need logs next to metrics. elastic or loki?'),
        a(
          para(
            "I'd go with Loki here:",
            "- **Cost**: Loki indexes only labels and stores log lines compressed in object storage (we have S3 already). Elasticsearch indexes every field; for our ~40 GB/day of exporter and SCADA gateway logs an ES cluster means three data nodes with SSDs.\n- **Same labels**: promtail attaches the Kubernetes labels Prometheus already uses, so in Grafana you jump from a metric spike to the logs of the same pod with one click.\n- **One UI**: it is a Grafana data source; no Kibana to run.",
            "The trade-off: full-text search over long ranges is slower in Loki (it greps chunks). For incident work on the last hours that is fine; for year-long forensic searches it is not, but nobody asked for that.",
          ),
          undefined,
          'gw-loki',
        ),
        u("loki. cheap and same labels, sold", 'gw-loki-yes'),
        a('Installed `grafana/loki` (SimpleScalable, S3 bucket `gridwatch-logs-eu`) and promtail as a DaemonSet via the helmfile.'),
        u('also the overview dashboard I built by hand in grafana, make it code'),
        a('Exported it to `dashboards/grid-overview.json` and provision it through a ConfigMap labelled `grafana_dashboard: "1"`, which the Grafana sidecar in kube-prometheus-stack picks up automatically. Hand edits in the UI will now be overwritten on the next sync, so change the JSON instead.', [bash('kubectl create configmap grid-overview -n monitoring --from-file=dashboards/grid-overview.json --dry-run=client -o yaml | kubectl label -f - --local grafana_dashboard=1 -o yaml > k8s/dashboards.yaml', '')], 'gw-dashboard'),
      ],
    },
  ],
  questions: [
    { question: 'Why did the metrics collector pod keep dying every twenty minutes?', category: 'root-cause', evidence: ['gw-oom'], answer: 'A per-meter label made ~48k series; the exporter kept them all in memory and crossed its memory limit (OOMKilled).', find: ['meter_id'] },
    { question: 'What memory ceiling was the collector running with when it crashed?', category: 'config-value', evidence: ['gw-oom-describe'], answer: '256Mi.', find: ['256Mi'] },
    { question: 'What memory allowance did we give the collector afterwards?', category: 'changed-value', evidence: ['gw-oom'], answer: '512Mi.', find: ['512Mi'] },
    { question: 'How frequently are targets polled for samples now?', category: 'changed-value', evidence: ['gw-retention'], answer: 'Every 15 seconds (was 30s).', find: ['scrapeInterval: 15s'] },
    { question: 'What polling interval did the hand-made install use?', category: 'changed-value', evidence: ['gw-stack'], answer: '30 seconds.', find: ['scrapeInterval: 30s'] },
    { question: 'What upstream package number is the observability stack frozen at?', category: 'config-value', evidence: ['gw-stack'], answer: 'kube-prometheus-stack 58.2.1.', find: ['58.2.1'] },
    { question: 'What is my policy on floating container tags?', category: 'preference', evidence: ['gw-latest'], answer: 'Never use :latest; pin a version or digest (latest broke the config in 2024).', find: ['we never use latest'] },
    { question: 'Where does the infrastructure-as-code keep its state, and what prevents concurrent applies?', category: 'location', evidence: ['gw-tfstate'], answer: 'S3 bucket gridwatch-tfstate-eu (eu-north-1), key cluster/terraform.tfstate, locked with DynamoDB table tf-locks.', find: ['gridwatch-tfstate-eu', 'tf-locks'] },
    { question: 'Who gets woken up for severe problems and where do minor ones show up?', category: 'config-value', evidence: ['gw-routing'], answer: 'Critical → PagerDuty service grid-oncall; the rest → Slack #grid-alerts.', find: ['grid-oncall', '#grid-alerts'] },
    { question: 'How do I unit-test the alerting expressions locally?', category: 'command', evidence: ['gw-missed'], answer: 'promtool test rules tests/alerts.test.yml', find: ['promtool test rules tests/alerts.test.yml'] },
    { question: 'Why did nobody get notified about the six-minute dip at north-7?', category: 'root-cause', evidence: ['gw-missed'], answer: 'for: 10m was longer than the dip, and a [1m] window at 30s scrapes often had no samples, resetting the timer; changed to [2m] and for: 2m.', find: ['for: 10m'] },
    { question: 'How many days of history does the time-series database keep now?', category: 'changed-value', evidence: ['gw-retention'], answer: '30 days (was 15).', find: ['retention: 30d'] },
    { question: 'What outside review forced us to keep data longer, and when is it?', category: 'temporal', evidence: ['gw-audit'], answer: 'The regulator audit on June 30.', find: ['June 30'] },
    { question: 'How did we bounce the collector so it read the new settings?', category: 'command', evidence: ['gw-restart'], answer: 'kubectl rollout restart deploy/grid-exporter -n monitoring', find: ['kubectl rollout restart deploy/grid-exporter -n monitoring'] },
    { question: 'Why did we pick the cheaper logging backend over Elastic?', category: 'decision', evidence: ['gw-loki', 'gw-loki-yes'], answer: 'Loki: cheaper (indexes only labels, S3 storage) and shares Prometheus labels in Grafana; Elasticsearch would need three SSD data nodes.', find: ['indexes only labels'] },
    { question: 'Where is the overview board stored as code, and how does Grafana load it?', category: 'location', evidence: ['gw-dashboard'], answer: 'dashboards/grid-overview.json, provisioned via a ConfigMap labelled grafana_dashboard: "1" picked up by the sidecar.', find: ['dashboards/grid-overview.json'] },
    { question: 'How often does an unresolved page get repeated?', category: 'config-value', evidence: ['gw-routing'], answer: 'Every 4 hours (repeat_interval: 4h).', find: ['repeat_interval: 4h'] },
    { question: 'How much disk did the monitoring database need after the compliance request?', category: 'multi-hop', evidence: ['gw-audit', 'gw-retention'], answer: 'From 50Gi to 120Gi (about four times the samples: 15s scrapes and 30 days).', find: ['120Gi'] },
  ],
};
