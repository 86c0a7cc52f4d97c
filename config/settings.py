"""Settings, all from the environment (docs/operations.md lists every variable).

Defaults are for the one-command demo: an embedded SQLite file and Celery tasks
run eagerly in the web process.  Production sets DATABASE_URL (PostgreSQL) and
CELERY_BROKER_URL (Redis), and must set SECRET_KEY.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected 1/0, true/false, yes/no or on/off")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # Demo only: a fresh key per process (sessions end when the server restarts).
    SECRET_KEY = secrets.token_urlsafe(50)

# export_club signs its files with this key and import_club checks it (ops/backup.py, ops/restore.py):
# the SECRET_KEY by default; the demo, whose SECRET_KEY changes with every process, signs
# with a public key of its own (its files prove nothing).
BACKUP_SIGNING_KEY = env_str(
    "BACKUP_SIGNING_KEY", os.environ.get("SECRET_KEY", "") or "clubscore-demo-backups"
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
    "scoring",
    "reach",
    "actions",
    "web",
    "ops",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RejectNulCharacters",
    "config.middleware.DatabaseBusy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside the sessions: sees the session as the view left it (web.caching).
    "web.caching.PrivateAnswers",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "web.previews.LanguageInLink",  # ?lang=ja: a shared link keeps its language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "web.pages.errors.SiteErrorPages",  # inside the policy and the reader's language
    # Last: turns a locked-out sign-in into its answer (web.pages.signin.locked_out).
    "axes.middleware.AxesMiddleware",
]

# Every password check goes through django-axes first (web/pages/signin.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(env_str("DATABASE_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database (the demo, a club on its own machine): a write takes SQLite's
    # lock when its transaction begins (BEGIN IMMEDIATE), not halfway through, and waits
    # up to SQLITE_BUSY_SECONDS for it; readers do not block the writer (WAL).  A lock
    # still not had answers 503 (config.middleware.DatabaseBusy), never a 500.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": int(env_str("SQLITE_BUSY_SECONDS", "20")),
        "init_command": "PRAGMA journal_mode=WAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
LOCALE_PATHS = [BASE_DIR / "locale"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.storage.StaticFiles"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Behind the TLS proxy (production: HTTPS on unless DEBUG): plain HTTP is redirected to
# HTTPS (but /healthz and /readyz, for the load balancer), browsers are told to come back
# only over HTTPS (HSTS), cookies travel only over HTTPS, and a request is HTTPS when the
# proxy says so in X-Forwarded-Proto (it must set it).  `manage.py check --deploy` passes.
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(env_str("HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", HTTPS)

# Content-Security-Policy (django-csp): the pages run only the site's own scripts and
# styles, load nothing from elsewhere and cannot be framed.  The API documentation page
# (Swagger UI, drf-spectacular's template) writes a script of its own: web.api.docs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Throttling and sign-in limits count in the cache: Redis when several processes serve.
CACHE_URL = env_str("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# The ratings' update: the engine's own Plackett-Luce (engine/skill.py, compiled), or the
# openskill package it is checked against (the fallback).
RATING_MODEL = env_str("RATING_MODEL", "clubscore")
if RATING_MODEL not in ("clubscore", "openskill"):
    raise ImproperlyConfigured(f"RATING_MODEL={RATING_MODEL!r}: expected clubscore or openskill")
SIGN_IN_ATTEMPTS = int(env_str("SIGN_IN_ATTEMPTS", "5"))
SIGN_IN_LOCKOUT_SECONDS = int(env_str("SIGN_IN_LOCKOUT_SECONDS", "900"))
# Proxies in front of the site that add the client's address to X-Forwarded-For (the
# documented TLS proxy: 1).  0: the connection's own address is the client's.
TRUSTED_PROXIES = int(env_str("TRUSTED_PROXIES", "0"))

# django-axes: failures counted per user name and address in the database (shared by
# every web process), whatever way the password was sent (web/pages/signin.py).
AXES_FAILURE_LIMIT = SIGN_IN_ATTEMPTS
AXES_COOLOFF_TIME = dt.timedelta(seconds=SIGN_IN_LOCKOUT_SECONDS)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "web.pages.signin.client_address"
AXES_LOCKOUT_CALLABLE = "web.pages.signin.locked_out"
AXES_VERBOSE = False

CSRF_FAILURE_VIEW = "web.pages.errors.csrf_failure"  # the site's page, in the reader's language
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts without the site operator (issue 29): with ALLOW_SIGN_UP anyone may make an
# account and a club of their own (the demo: on); members join by invitation links.
ALLOW_SIGN_UP = env_bool("ALLOW_SIGN_UP", False)
# Sign-up is open to strangers: clubs started from one address a day, and by one account.
SIGN_UPS_PER_ADDRESS = int(env_str("SIGN_UPS_PER_ADDRESS", "3"))
CLUBS_PER_ACCOUNT = int(env_str("CLUBS_PER_ACCOUNT", "3"))
# A forgotten password: Django's reset by e-mail once EMAIL_HOST is set; otherwise a
# league administrator makes a one-time reset link (actions.invitations.may_reset).
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = int(env_str("EMAIL_PORT", "587"))
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "clubscore@localhost")

# Web Push (reach.push): the site's VAPID key pair, the same for every web process and
# worker.  Empty: one pair is made on first use and kept in the database (reach.VapidKey).
# VAPID_PRIVATE_KEY is a PEM or a base64url raw key; VAPID_PUBLIC_KEY, when given, must be
# its public key.  VAPID_SUBJECT is how a push service reaches the site's operator.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
# Push endpoints on private or loopback addresses (and plain http on loopback): refused,
# so that nobody makes the server post into its own network; on for tests and the demo.
PUSH_ALLOW_PRIVATE_ENDPOINTS = env_bool("PUSH_ALLOW_PRIVATE_ENDPOINTS", DEBUG)
# The browsers' push services (Chrome and most Chromium browsers: Google's FCM; Firefox:
# Mozilla's autopush; Edge: Windows' WNS; Safari: Apple's): a subscription whose endpoint
# is elsewhere is refused, so that a stranger cannot make the workers post to a server of
# their own.  A name covers its subdomains (updates.push.services.mozilla.com).
PUSH_SERVICES = env_list(
    "PUSH_SERVICES",
    "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
)
# A reset link (e-mailed, or made by a league administrator: actions.reset_links)
# works once, for this long: made when the member asks, used at once.
RESET_LINK_SECONDS = int(env_str("RESET_LINK_SECONDS", str(2 * 3600)))
PASSWORD_RESET_TIMEOUT = RESET_LINK_SECONDS

# A deal record is small; anything near this is not a deal record.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],  # no passwords through the API (HTTP Basic would be a guessing ground): tokens
    # for programs, sessions for the pages and the browsable API
    "NUM_PROXIES": TRUSTED_PROXIES,  # rate limits count the same client as the sign-in
    "DEFAULT_THROTTLE_RATES": {"deal_entry": env_str("DEAL_ENTRY_RATE", "60/min")},
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["web.api.filters.ClubScopedFilterBackend"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "web.api.renderers.BrowsableAPI",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "web.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "web.api.errors.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Clubscore API",
    "DESCRIPTION": "Clubs, players, seasons, matches, deals and standings. "
    "Deal records follow docs/deal-records.md.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Programs send JSON; the form parsers are only for the browsable API's forms.
    "PARSER_WHITELIST": ["web.api.parsers.SafeJSONParser"],
    # The club's machine may have no internet: the API docs' assets are served locally.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The games are one choice set wherever a game is named (a match's, a season's list).
    "ENUM_NAME_OVERRIDES": {"GameEnum": "tournaments.models.GAME_NAMES"},
}

# Celery: with no broker configured (the demo) tasks run eagerly, in the web process.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
# A full rebuild waits for its per-club tasks: their results go to the broker's Redis.
CELERY_RESULT_BACKEND = (
    env_str(
        "CELERY_RESULT_BACKEND", CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else ""
    )
    or None
)
CELERY_RESULT_EXPIRES = 3600
# A task taken by a worker that dies unacknowledged (acks_late) goes back to the queue
# after this many seconds; keep it above the longest task (a club's rebuild).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(env_str("CELERY_VISIBILITY_TIMEOUT", "3600"))
}
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# Webhooks (reach.webhooks, docs/webhooks.md): a periodic sweep sends the deliveries that
# are due (retries with back-off), so a worker's restart loses none; run one
# `celery -A config beat` beside the workers.
CELERY_BEAT_SCHEDULE = {
    "reach-webhooks-due": {"task": "reach.tasks.send_due_webhooks", "schedule": 30.0},
}
# An endpoint's URL is a stranger's: HTTPS to public addresses only.  These two let a
# developer's or the tests' receiver on this machine take them; never on in production.
WEBHOOKS_ALLOW_HTTP = env_bool("WEBHOOKS_ALLOW_HTTP", False)
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # django-axes logs every sign-in at INFO; its refusals are warnings.
    "loggers": {"axes": {"level": "WARNING"}},
}
