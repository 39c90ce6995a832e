// Sentences about systems (ports, hosts, versions) as people write them in notes and chat, each
// with the facts it must give. The memory time is 2026-03-01T10:00Z (a Sunday); the user is Sam.
// Expectations: `subject | attribute | value`, then ` (replaces X)` and ` @YYYY-MM-DD` (validFrom)
// when the fact has them. An empty list: the sentence states no fact the extractor may take.
export type Case = readonly [text: string, expected: readonly string[]];

/** A lead-in ("Reminder:", "FYI", "btw", …) says nothing about the subject after it. */
export const LEAD_INS: readonly Case[] = [
  ['Reminder: staging database is on port 5433', ['staging database | port | 5433']],
  ['FYI the staging db is on port 5433', ['the staging db | port | 5433']],
  ['Note: the redis cache runs on port 6380.', ['the redis cache | port | 6380']],
  ['Update: staging postgres is now on port 6543', ['staging postgres | port | 6543']],
  ['btw grafana runs on port 3001', ['grafana | port | 3001']],
  ['PSA: the metrics endpoint moved to port 9100', ['the metrics endpoint | port | 9100']],
  ['Heads-up: the auth service is listening on port 4001 now', ['the auth service | port | 4001']],
  ['Quick note - the billing API runs on port 8082', ['the billing API | port | 8082']],
  ['Just so you know, the dev server uses port 3000', ['the dev server | port | 3000']],
  ['For the record: mailhog listens on 8025', ['mailhog | port | 8025']],
  ['Note to self: keycloak is at port 8180', ['keycloak | port | 8180']],
  ["Don't forget: the staging database is on port 6543", ['the staging database | port | 6543']],
  ['TIL the admin console runs at port 9990', ['the admin console | port | 9990']],
  ['Remember that the test database listens on port 55432', ['the test database | port | 55432']],
  ['ok so the websocket gateway is on port 8765', ['the websocket gateway | port | 8765']],
  ['Important: prod redis runs on port 6390', ['prod redis | port | 6390']],
  ['FYI: Ana moved to Lisbon', ['Ana | lives in | Lisbon']],
  ['Update - we upgraded to Node 22', ['Node | version | 22']],
];

export const PORTS: readonly Case[] = [
  ['staging database uses port 5433', ['staging database | port | 5433']],
  ['staging DB listens on 5433', ['staging DB | port | 5433']],
  ['postgres port for staging is now 6543', ['staging postgres | port | 6543']],
  ['staging is on 6543 now', ['staging | port | 6543']],
  ['yeah we moved staging to 6543 yesterday', ['staging | port | 6543 @2026-02-28']],
  ['the redis port for prod is 6380', ['prod redis | port | 6380']],
  ['our minio instance is exposed on 9000', ['our minio instance | port | 9000']],
  ['the dashboard now lives on 3030', ['the dashboard | port | 3030']],
  ['the api server binds to port 8081', ['the api server | port | 8081']],
  ['nginx is listening on 8080', ['nginx | port | 8080']],
  ['we changed the api port to 8443 on Tuesday', ['the api | port | 8443 @2026-02-24']],
  ['switched the staging db over to port 6544', ['the staging db | port | 6544']],
  ['staging db now on 6543', ['staging db | port | 6543']],
  ['the staging database port changed from 5433 to 6543', ['the staging database | port | 6543']],
  ["prod's postgres is on 5432", ["prod's postgres | port | 5432"]],
  ['the local mongo instance runs on 27018 these days', ['the local mongo instance | port | 27018']],
];

export const HOSTS: readonly Case[] = [
  ['the API runs at api.internal:8443', ['the API | host | api.internal:8443']],
  ['the search cluster is reachable at search.internal:9200', ['the search cluster | host | search.internal:9200']],
  ['redis is on localhost:6379', ['redis | host | localhost:6379']],
  ['the docs site is served from docs.internal', ['the docs site | host | docs.internal']],
  ['staging points to db-2.eu.internal now', ['staging | host | db-2.eu.internal']],
  ['btw the grafana box moved to 10.0.4.12', ['the grafana box | host | 10.0.4.12']],
  ['the dashboard is at grafana.internal', ['the dashboard | host | grafana.internal']],
  ['since then staging is on 6543', ['staging | port | 6543']],
];

export const VERSIONS: readonly Case[] = [
  ["we're on Node 20 now", ['Node | version | 20']],
  ['bumped React to 19', ['React | version | 19']],
  ['upgraded postgres from 15 to 16', ['postgres | version | 16 (replaces 15)']],
  ['we finally upgraded python to 3.12', ['python | version | 3.12']],
  ['the backend is on Java 21 now', ['Java | version | 21']],
  ['we moved the monorepo to TypeScript 5.4', ['TypeScript | version | 5.4']],
  ['upgraded the cluster to Kubernetes 1.30 on Friday', ['Kubernetes | version | 1.30 @2026-02-27']],
  ['prod runs node 22 now', ['node | version | 22']],
  ['Update: we bumped Next.js from 14 to 15', ['Next.js | version | 15 (replaces 14)']],
  ['i upgraded my laptop to macOS 15', ['macOS | version | 15']],
  ['the CI image now uses ruby 3.3', ['ruby | version | 3.3']],
  ['downgraded eslint to 8.57 because of plugin breakage', ['eslint | version | 8.57']],
  ['Heads up: terraform is pinned to 1.7.5', ['terraform | version | 1.7.5']],
  ['went from Vue 2 to Vue 3', ['Vue | version | 3 (replaces 2)']],
  ['lol we finally upgraded to node 22', ['node | version | 22']],
  ['bumped redis from 6 to 7 yesterday', ['redis | version | 7 (replaces 6) @2026-02-28']],
  ['we are on postgres 16 since February', ['postgres | version | 16 @2026-02-01']],
];

/** Look like a port or a version, state none. */
export const THINGS_NOTHING: readonly Case[] = [
  ['is staging still on port 5433?', []],
  ['Reminder: staging is not on 5433 anymore', []],
  ['if staging moves to 6543 we must update the docs', []],
  ['the team is on 3 projects', []],
  ['Ana is on 5433', []],
  ['we are on page 20 now', []],
  ['staging is on fire', []],
  ['the API is on 2 servers', []],
  ['the meeting is at 1530', []],
  ['the kids are on level 12', []],
  ['FYI: prod might move to port 7000', []],
  ['Bruno said staging runs on 6543', []],
  ['we upgraded the plan to 3 seats', []],
  ['bumped the priority to 2', []],
  ['my score is now 6543', []],
  ['Ana is on 2 teams now', []],
  ['the queue is at 4000 messages', []],
  ['we moved the standup to 10', []],
  ['bumped the font size to 14', []],
  ['upgraded my phone plan to 5 lines', []],
  ['the cluster is at 500', []],
  ['the server is at 95', []],
  ['staging is at 1200 errors per minute', []],
  ['prod is on 1024 cores', []],
  ['we bumped the budget to 5000', []],
  ['the queue listens on 0', []],
  ["yesterday's deploy took staging down for 20 minutes", []],
];
