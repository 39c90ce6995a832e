// Names known without context: tools and technologies people work with, the large companies
// behind them, and the words that end an organisation's name ("Acme Corp", "Stanford University").
// Small and curated: a name here is found in any case ("postgres", "Docker"); a name that is also an
// everyday word ("Go", "Swift", "Rust", "Slack", "Zoom") only as written with its capital.
import type { EntityType } from '../../../core/types.js';

export interface KnownName {
  name: string;
  type: EntityType;
}

const tools = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** Found in any case: these words mean the tool whatever the capitals. */
const ANY_CASE = tools(`PostgreSQL Postgres MySQL MariaDB SQLite Redis MongoDB DynamoDB Cassandra Elasticsearch OpenSearch ClickHouse
  BigQuery Supabase Firebase Kafka RabbitMQ Docker Kubernetes k8s Terraform Ansible Pulumi Nginx HAProxy Traefik Jenkins
  CircleCI GitHub GitLab Bitbucket Jira Confluence Trello Asana Figma VSCode Neovim Emacs IntelliJ PyCharm WebStorm Xcode
  TypeScript JavaScript Python Kotlin Scala Haskell Elixir Erlang Clojure Golang PHP Fortran COBOL Django FastAPI Laravel
  Symfony Node.js NodeJS Deno npm pnpm Webpack Vite esbuild ESLint Prettier Vitest Pytest Cypress Playwright Selenium GraphQL
  gRPC Protobuf OpenAPI React Vue.js Angular Svelte SvelteKit Next.js Nuxt Gatsby jQuery Redux Express.js Prisma Sequelize
  SQLAlchemy Hibernate NumPy SciPy PyTorch TensorFlow Keras scikit-learn Jupyter Matplotlib Grafana Prometheus Datadog
  PagerDuty Splunk Kibana Logstash Heroku Vercel Netlify Cloudflare AWS GCP Azure EC2 Ubuntu Debian Fedora CentOS macOS iOS
  iPadOS Android Git PowerShell tmux ChatGPT GPT-4 GPT-4o GPT-5 OpenAI Anthropic Ollama HuggingFace LangChain Wireshark
  Photoshop Lightroom InDesign Godot PowerPoint OneDrive SharePoint Dropbox Evernote Airtable Zapier Salesforce HubSpot
  Shopify Stripe PayPal Twilio SendGrid Mailchimp WordPress Squarespace Discord WhatsApp Telegram Instagram Facebook Twitter
  TikTok YouTube LinkedIn Reddit Pinterest Snapchat Spotify Netflix Twitch Strava Duolingo Airbnb Lyft iPhone iPad MacBook
  iMac AirPods PlayStation Xbox Nintendo Fitbit Garmin Tesla Microsoft IBM Nvidia AMD Samsung Adobe Atlassian Mozilla
  Firefox Chromium WebAssembly`);

/** Found only as written with a capital: also ordinary words or common first names. */
const CASED = tools(`Go Rust Ruby Swift Java Dart Perl Lua Julia Slack Zoom Teams Notion Node Express Apache Chef Puppet Spark Flink
  Hadoop Hive Airflow Pulsar Edge Signal Word Excel Keynote Claude Mistral Cohere Gemini Llama Bard Alexa Siri Windows Mac
  Linux Steam Pixel Kindle Spring Lambda Unity Bun Helm Chrome Safari Alpine Meta Apple Amazon Google Oracle Intel Uber
  Premiere Remix Obsidian Outlook Blender Illustrator Unreal Yarn Bootstrap Tailwind Babel Rollup Jest Mocha Vagrant Vim
  Drizzle Sentry Mercurial Homebrew Bash Zsh Swagger Copilot Postman Insomnia Snowflake Vue Rails Flask Caddy Hono Pandas
  Wix`);

/** Companies among the names above: the rest are tools and products. */
const COMPANIES = new Set(
  tools(`google microsoft apple amazon meta ibm oracle intel nvidia amd samsung sony adobe atlassian mozilla openai anthropic
  salesforce hubspot stripe twilio shopify cloudflare vercel netlify heroku datadog tesla airbnb uber lyft spotify netflix
  nintendo garmin fitbit mistral cohere`),
);

const byLower = new Map<string, KnownName>();
const byCased = new Map<string, KnownName>();
for (const n of ANY_CASE) byLower.set(n.toLowerCase(), { name: n, type: COMPANIES.has(n.toLowerCase()) ? 'organization' : 'tool' });
for (const n of CASED) byCased.set(n, { name: n, type: COMPANIES.has(n.toLowerCase()) ? 'organization' : 'tool' });

/** A tool, product or company this word (or dotted/hyphenated name) is, or null. */
export function knownName(word: string): KnownName | null {
  return byCased.get(word) ?? byLower.get(word.toLowerCase()) ?? null;
}

/** Whether some known name starts with this lower-case word ("node" for "Node.js"). */
export const KNOWN_LOWER = byLower;

/** Last words of organisation names: "Acme Corp", "Stanford University", "Helios Labs". */
export const ORG_SUFFIXES = new Set(
  tools(`Inc Inc. Incorporated LLC L.L.C. Ltd Ltd. Limited GmbH AG SA S.A. SAS SARL BV B.V. NV N.V. Pty Plc PLC Corp Corp.
  Corporation Co. Company Companies Group Holdings University College Institute Foundation Labs Lab Laboratories Bank
  Hospital Clinic School Academy Association Society Agency Studio Studios Systems Technologies Technology Software
  Solutions Partners Ventures Capital Consulting Industries Enterprises Church Club Council Ministry Department Museum
  Gallery Library Center Centre Network Media Press Records Publishing Airlines Motors Pharmaceuticals Insurance Union
  Federation Committee Commission Bureau Authority Trust Charity Cafe Café Restaurant Bakery Shelter`),
);

/** First words of organisation names: "University of Toronto", "Bank of America". */
export const ORG_PREFIXES = new Set(tools(`University Bank College Institute School Museum Church Department Ministry Academy Society Order Federation`));
