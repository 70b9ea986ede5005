# Amerikaner rooms server.  Build: docker build -t amerikaner .   Run: see docker-compose.yml
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    AMERIKANER_DATA_DIR=/data

WORKDIR /src
# Exactly the locked versions, hashes checked (requirements/serve.txt: the runtime, the
# postgres extra and the build backend), in a layer of their own that a code change keeps.
COPY requirements/serve.txt ./requirements/serve.txt
RUN pip install --require-hashes --no-deps -r requirements/serve.txt
COPY pyproject.toml README.md ./
COPY app ./app
# The project alone: its dependencies are above, its build backend too (no isolation, so
# nothing unlocked is fetched to build it).
RUN pip install --no-deps --no-build-isolation --no-index . \
    && pip check \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin amerikaner \
    && mkdir -p /data && chown amerikaner /data \
    && rm -rf /src

WORKDIR /data
USER amerikaner
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"

CMD ["amerikaner", "serve", "--host", "0.0.0.0", "--port", "8000"]
