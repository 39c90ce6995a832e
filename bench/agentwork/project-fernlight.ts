// Scenario: fernlight, a Django inventory app for a plant nursery (Priya). A slow admin list,
// the task queue moved to Redis, gunicorn sizing changed after an OOM, a time-zone report bug.
import { a, bash, code, edit, para, read, u, type Project } from './script.js';

const ADMIN = `@admin.register(Plant)
class PlantAdmin(admin.ModelAdmin):
    list_display = ("name", "species", "supplier_name", "stock_total", "price")
    search_fields = ("name", "species")

    def supplier_name(self, obj):
        return obj.supplier.name

    def stock_total(self, obj):
        return sum(b.quantity for b in obj.batches.all())`;

export const fernlight: Project = {
  id: 'fernlight',
  person: 'Priya',
  cwd: '/home/priya/work/fernlight',
  start: '2026-03-02',
  routine: {
    files: [
      { path: 'inventory/models.py', body: 'class Plant(models.Model):\n    name = models.CharField(max_length=120)\n    species = models.CharField(max_length=120)\n    supplier = models.ForeignKey(Supplier, on_delete=models.PROTECT)\n    price = models.DecimalField(max_digits=8, decimal_places=2)' },
      { path: 'inventory/admin.py', body: ADMIN },
      { path: 'orders/views.py', body: 'class OrderCreate(LoginRequiredMixin, CreateView):\n    model = Order\n    form_class = OrderForm\n    success_url = reverse_lazy("orders:list")' },
      { path: 'orders/tasks.py', body: '@shared_task(bind=True, max_retries=3)\ndef send_confirmation(self, order_id):\n    order = Order.objects.get(pk=order_id)\n    mail_order(order)' },
    ],
    testCommand: 'pytest -q',
    testPass: '........................................................ [ 88%]\n.......                                                  [100%]\n63 passed in 9.42s',
    testFail: [
      {
        output: "FAILED orders/tests/test_views.py::test_order_total_includes_gst - AssertionError: assert Decimal('43.00') == Decimal('49.45')\n1 failed, 62 passed in 9.87s",
        fix: 'The order total skipped GST when the basket held a single line; `Order.total()` now applies the 15% rate in every case.',
        file: 'orders/views.py',
        before: '    success_url = reverse_lazy("orders:list")',
        after: '    success_url = reverse_lazy("orders:list")  # total() applies GST',
      },
      {
        output: 'FAILED inventory/tests/test_models.py::test_price_must_be_positive - django.core.exceptions.ValidationError: {\'price\': [\'Ensure this value is greater than or equal to 0.01.\']} not raised\n1 failed, 62 passed in 9.55s',
        fix: 'The `MinValueValidator(Decimal("0.01"))` on `Plant.price` had been dropped in the last model edit; it is back.',
        file: 'inventory/models.py',
        before: '    price = models.DecimalField(max_digits=8, decimal_places=2)',
        after: '    price = models.DecimalField(max_digits=8, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))])',
      },
    ],
    lint: { command: 'ruff check .', output: 'orders/views.py:3:1: F401 [*] `django.http.HttpResponse` imported but unused\ninventory/admin.py:14:89: E501 Line too long (97 > 88)\nFound 2 errors.\n[*] 1 fixable with the `--fix` option.' },
    chores: ['add the new suppliers migration to the deploy notes', 'bump django to the latest 5.1 patch', 'squash the two inventory migrations from last week', 'update the staff onboarding doc with the new admin filters'],
  },
  sessions: [
    {
      day: 0,
      hour: 8,
      steps: [
        u('the Plants page in the admin takes forever to open, like 15 seconds. staff are complaining'),
        a("I'll count the SQL it runs.", [bash('python manage.py shell -c "from tests.perf import time_admin; time_admin(\'inventory/plant\')"', 'GET /admin/inventory/plant/ -> 200\nSQL queries: 4,031\ntotal time: 13.8s (SQL 11.9s)\nmost repeated: SELECT ... FROM "inventory_batch" WHERE "inventory_batch"."plant_id" = %s (2,014x)', { key: 'fl-queries' }), read('inventory/admin.py', ADMIN)]),
        a(
          para(
            'Classic N+1, twice over. The changelist shows 100 rows per page but the two computed columns run their own queries per row — and more than that, because the count query and the filter sidebar re-run them for the total. For every plant row:',
            '- `supplier_name` does `obj.supplier.name`, one `SELECT` on `inventory_supplier` per plant;\n- `stock_total` does `obj.batches.all()` and sums in Python, one `SELECT` on `inventory_batch` per plant (the 2,014 repeats in the output).',
            'Fix both in the database:',
            code('python', '@admin.register(Plant)\nclass PlantAdmin(admin.ModelAdmin):\n    list_display = ("name", "species", "supplier_name", "stock_total", "price")\n    list_select_related = ("supplier",)\n\n    def get_queryset(self, request):\n        return super().get_queryset(request).annotate(_stock=Coalesce(Sum("batches__quantity"), 0))\n\n    @admin.display(ordering="_stock")\n    def stock_total(self, obj):\n        return obj._stock'),
            '`list_select_related` turns the supplier lookups into one JOIN, and the annotation computes every total in the same query. As a bonus the stock column becomes sortable. Expected: 3–4 queries for the page regardless of how many plants there are.',
          ),
          [edit('inventory/admin.py', '    search_fields = ("name", "species")', '    search_fields = ("name", "species")\n    list_select_related = ("supplier",)')],
          'fl-nplus1',
        ),
        a('', [bash('python manage.py shell -c "from tests.perf import time_admin; time_admin(\'inventory/plant\')"', 'GET /admin/inventory/plant/ -> 200\nSQL queries: 4\ntotal time: 0.21s (SQL 0.09s)')]),
        a('Down from 13.8 s to 0.21 s, four queries.'),
        u('wow. thanks!!'),
      ],
    },
    {
      day: 5,
      hour: 13,
      branch: 'redis-broker',
      steps: [
        u("rabbitmq filled the disk on the vm again last night. honestly nobody here knows how to run it, and we already have redis for the cache. let's make redis the celery broker and get rid of rabbit", 'fl-broker'),
        a('', [read('fernlight/settings/base.py', 'CELERY_BROKER_URL = "amqp://fernlight@localhost:5672//"\nCACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://localhost:6379/0"}}\nTIME_ZONE = "UTC"\nUSE_TZ = True')]),
        a(
          para(
            "Switching is small, but there is one Redis-broker gotcha that matters for us. Here is the change in `fernlight/settings/base.py`:",
            code('python', 'CELERY_BROKER_URL = "redis://localhost:6379/2"\nCELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 7200}\nCELERY_RESULT_BACKEND = None'),
            "I put the broker on database 2 so `FLUSHDB` on the cache (database 0) can never drop queued tasks.",
            "The gotcha: with Redis, a task that a worker has fetched but not acknowledged is handed to another worker once the visibility timeout expires — default one hour. Our nightly supplier stock sync takes up to 90 minutes on the big supplier files, so with the default it would be started a second time while the first is still running, and we would import stock twice. I set the timeout to 7200 seconds (two hours), comfortably above the longest run. If the sync ever gets longer than that, this number has to grow with it.",
            "The worker needs `celery[redis]`; the `amqp` extra and the RabbitMQ service can go.",
          ),
          [edit('fernlight/settings/base.py', 'CELERY_BROKER_URL = "amqp://fernlight@localhost:5672//"', 'CELERY_BROKER_URL = "redis://localhost:6379/2"\nCELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 7200}')],
          'fl-visibility',
        ),
        u('makes sense. remove rabbit from the ansible playbook too'),
        a('Removed the `rabbitmq` role from `deploy/site.yml` and added a task that stops and disables `rabbitmq-server` on the VM.', [edit('deploy/site.yml', '    - rabbitmq\n', '')]),
      ],
    },
    {
      day: 12,
      hour: 10,
      branch: 'deploy-gunicorn',
      steps: [
        u("we're moving off runserver-in-screen (yes I know). set up gunicorn + systemd on the vm. it has 2 vCPUs and 2 GB"),
        a(
          para(
            "The usual starting point is `2 × cores + 1` workers, so 5 on two vCPUs. The unit file goes to `/etc/systemd/system/fernlight.service`:",
            code('ini', '[Unit]\nDescription=fernlight (gunicorn)\nAfter=network.target\n\n[Service]\nUser=fernlight\nWorkingDirectory=/srv/fernlight\nExecStart=/srv/fernlight/.venv/bin/gunicorn fernlight.wsgi --workers 5 --timeout 60 --bind unix:/run/fernlight.sock\nRestart=on-failure\n\n[Install]\nWantedBy=multi-user.target'),
            "`--timeout 60` because the CSV stock export can take 30–40 seconds for the whole catalogue. nginx proxies to the socket. Enable with `sudo systemctl enable --now fernlight`.",
          ),
          [bash('sudo systemctl enable --now fernlight && systemctl status fernlight --no-pager | head -3', '● fernlight.service - fernlight (gunicorn)\n     Loaded: loaded (/etc/systemd/system/fernlight.service; enabled; preset: enabled)\n     Active: active (running) since Sat 2026-03-14 10:21:07 UTC; 2s ago')],
          'fl-gunicorn',
        ),
        u('nice. and pin python in pyproject, the supplier ODBC driver wheel only exists for 3.11'),
        a('Set `requires-python = ">=3.11,<3.12"` in `pyproject.toml` and `python = "3.11"` in `.tool-versions`, so uv and asdf agree.', [edit('pyproject.toml', 'requires-python = ">=3.10"', 'requires-python = ">=3.11,<3.12"')], 'fl-python'),
        u("one more: I saw a json fixture file in your test PR. we don't do those, too brittle when models change. build test data with factory_boy factories. and run pytest with --reuse-db locally, recreating the db takes a minute every time", 'fl-tests'),
        a('Understood on both. Replaced `fixtures/plants.json` with `PlantFactory` and `SupplierFactory` in `inventory/tests/factories.py`, and added `addopts = "--reuse-db"` to the `[tool.pytest.ini_options]` section so a plain `pytest` reuses the test database (CI passes `--create-db`).'),
      ],
    },
    {
      day: 26,
      hour: 7,
      steps: [
        u('the vm OOMed overnight and the oom killer took out gunicorn. what is eating the memory'),
        a('', [bash("ps -o pid,rss,cmd -C gunicorn --sort=-rss | head -7", '  PID   RSS CMD\n 8812 391204 gunicorn: worker [fernlight.wsgi]\n 8815 388960 gunicorn: worker [fernlight.wsgi]\n 8813 380112 gunicorn: worker [fernlight.wsgi]\n 8816 377836 gunicorn: worker [fernlight.wsgi]\n 8814 371508 gunicorn: worker [fernlight.wsgi]\n 8801  41220 gunicorn: master [fernlight.wsgi]')]),
        a(
          para(
            "Each worker sits at ~380 MB RSS — five of them is 1.9 GB on a 2 GB VM, before Redis and Postgres get anything. A fresh worker is about 90 MB; they grow once someone opens the sales report, because `reports/sales.py` imports pandas and builds the whole DataFrame in the request. pandas plus numpy is ~150 MB resident on its own, and the frames are not freed back to the OS.",
            "Two changes:",
            "1. Fewer workers: 3 instead of 5. We have never had more than a handful of concurrent staff users, so 3 is plenty.\n2. Recycle workers: `--max-requests 500 --max-requests-jitter 50` restarts each worker after ~500 requests, so whatever grows is given back.",
            code('ini', 'ExecStart=/srv/fernlight/.venv/bin/gunicorn fernlight.wsgi --workers 3 --max-requests 500 --max-requests-jitter 50 --timeout 60 --bind unix:/run/fernlight.sock'),
            "Longer term the report should not run in a web worker at all: I would move it into a Celery task that writes the file and emails a link. Shall I?",
          ),
          [edit('/etc/systemd/system/fernlight.service', '--workers 5 --timeout 60', '--workers 3 --max-requests 500 --max-requests-jitter 50 --timeout 60')],
          'fl-oom',
        ),
        u('yes, move the report to a task', 'fl-report-task'),
        a('Moved: `reports/tasks.py::build_sales_report` runs on the worker, the view just enqueues it and shows "we will email you the report". pandas is now imported only inside the task.', [edit('reports/views.py', 'df = build_sales_frame(start, end)', 'build_sales_report.delay(request.user.pk, start.isoformat(), end.isoformat())')]),
        u('ty'),
      ],
    },
    {
      day: 33,
      hour: 21,
      branch: 'fix/report-dates',
      steps: [
        u("Aroha says the daily sales report is wrong: this morning's orders show under yesterday. orders after lunch are fine"),
        a('', [bash('python manage.py shell -c "from orders.models import Order; o = Order.objects.latest(\'created_at\'); print(o.created_at, timezone.localtime(o.created_at))"', '2026-04-04 21:12:44+00:00 2026-04-04 21:12:44+00:00')]),
        a(
          para(
            "Found it — the project time zone is still Django's default. `TIME_ZONE = \"UTC\"` in `fernlight/settings/base.py`, so `timezone.localtime()` returns UTC and the report's `TruncDate(\"created_at\")` groups by the **UTC** date.",
            "The nursery is in Auckland, which is UTC+13 until daylight saving ends on 5 April. Any order placed before 13:00 local time has a UTC timestamp on the previous calendar day, so the whole morning lands on yesterday's line; afternoon orders are on the same UTC date and look right. That matches exactly what Aroha sees.",
            code('python', 'TIME_ZONE = "Pacific/Auckland"\nUSE_TZ = True'),
            "Timestamps in the database stay UTC (that is what `USE_TZ` does); only grouping and display change. `TruncDate` uses the current time zone, so the report is right once the setting is. I will also add a test that creates an order at 09:00 Auckland time and checks the report puts it on the same day.",
          ),
          [edit('fernlight/settings/base.py', 'TIME_ZONE = "UTC"', 'TIME_ZONE = "Pacific/Auckland"')],
          'fl-tz',
        ),
        u('good catch. where do the prod overrides live again? I need to check nothing overrides TIME_ZONE there'),
        a('', [read('fernlight/settings/prod.py', 'from .base import *  # noqa\n\nDEBUG = False\nALLOWED_HOSTS = ["inventory.fernlight.nz"]\nSECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")\nSESSION_COOKIE_SECURE = True')]),
        a('Production overrides are in `fernlight/settings/prod.py`, which imports everything from `base.py` and only changes DEBUG, hosts and the security settings; `TIME_ZONE` is not overridden there, so the fix applies in production too.', undefined, 'fl-prod'),
        u('great. we need this right before the autumn bulb catalogue goes live on April 15, that is when order volume triples', 'fl-catalogue'),
        a('It will be deployed tomorrow morning, well before the 15th.'),
      ],
    },
  ],
  questions: [
    { question: 'Why was the catalogue screen in the back office so sluggish?', category: 'root-cause', evidence: ['fl-nplus1'], answer: 'N+1 queries: supplier_name and stock_total ran a query per row; fixed with list_select_related and a Sum annotation.', find: ['list_select_related'] },
    { question: 'How many SQL statements did that slow page issue before we fixed it?', category: 'config-value', evidence: ['fl-queries'], answer: '4,031 queries (13.8 s).', find: ['4,031'] },
    { question: 'Why did we get rid of the AMQP server?', category: 'decision', evidence: ['fl-broker'], answer: 'RabbitMQ kept filling the VM disk, nobody knew how to operate it, and Redis was already there for the cache.', find: ['rabbitmq filled the disk'] },
    { question: 'Which numbered keyspace do queued jobs use?', category: 'config-value', evidence: ['fl-visibility'], answer: 'Redis database 2 (redis://localhost:6379/2); the cache is on 0.', find: ['redis://localhost:6379/2'] },
    { question: 'Why did we raise how long a fetched job stays hidden, and to what value?', category: 'root-cause', evidence: ['fl-visibility'], answer: 'visibility_timeout 7200 s because the nightly supplier sync takes up to 90 minutes and would be redelivered after the default hour.', find: ['7200'] },
    { question: 'How many web processes serve the app today?', category: 'changed-value', evidence: ['fl-oom'], answer: '3 gunicorn workers (down from 5).', find: ['--workers 3'] },
    { question: 'How many workers did the first production setup have?', category: 'changed-value', evidence: ['fl-gunicorn'], answer: '5 (2 × cores + 1 on 2 vCPUs).', find: ['--workers 5'] },
    { question: 'What exhausted the RAM on the server overnight?', category: 'root-cause', evidence: ['fl-oom'], answer: 'Five gunicorn workers at ~380 MB each, grown by the sales report importing pandas inside web requests.', find: ['380 MB'] },
    { question: 'Which init-system file launches the web app at startup?', category: 'location', evidence: ['fl-gunicorn'], answer: '/etc/systemd/system/fernlight.service', find: ['/etc/systemd/system/fernlight.service'] },
    { question: 'Which interpreter release must the code run on, and why?', category: 'config-value', evidence: ['fl-python'], answer: 'Python 3.11 only (>=3.11,<3.12) because the supplier ODBC driver wheel exists only for 3.11.', find: ['>=3.11,<3.12'] },
    { question: 'How do I want sample records for tests to be made?', category: 'preference', evidence: ['fl-tests'], answer: 'With factory_boy factories, never JSON fixtures.', find: ['factory_boy'] },
    { question: 'Which option keeps local runs from rebuilding the test database each time?', category: 'command', evidence: ['fl-tests'], answer: 'pytest --reuse-db (set in addopts).', find: ['--reuse-db'] },
    { question: 'Why were breakfast-time purchases attributed to the day before?', category: 'root-cause', evidence: ['fl-tz'], answer: 'TIME_ZONE was UTC, so TruncDate grouped by UTC date; Auckland is UTC+13, so orders before 13:00 local fell on the previous day.', find: ['UTC+13'] },
    { question: 'Which file has the settings only used on the live server?', category: 'location', evidence: ['fl-prod'], answer: 'fernlight/settings/prod.py', find: ['fernlight/settings/prod.py'] },
    { question: 'When is the seasonal launch we had to be ready for?', category: 'temporal', evidence: ['fl-catalogue'], answer: 'April 15.', find: ['April 15'] },
    { question: 'Where does the heavy sales report run now, and what carries the job there?', category: 'multi-hop', evidence: ['fl-report-task', 'fl-visibility'], answer: 'In a Celery task (reports/tasks.py build_sales_report) on the worker, queued through the Redis broker (db 2).', find: ['move the report to a task', 'redis://localhost:6379/2'] },
    { question: 'What did we add so the processes give memory back from time to time?', category: 'command', evidence: ['fl-oom'], answer: '--max-requests 500 --max-requests-jitter 50', find: ['--max-requests 500'] },
    { question: 'When did the background job system change backends?', category: 'temporal', evidence: ['fl-broker'], answer: 'March 7, 2026.', find: ['make redis the celery broker'] },
  ],
};

