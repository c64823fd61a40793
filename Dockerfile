# The controller as a container. Point JACKPOT_REDIS_URL at the production Redis; without it
# the container runs the embedded store in /data (mount a volume there to keep the meters).
FROM python:3.11-slim AS build
WORKDIR /src
# setup.py seals the package as it is built (MANIFEST.json): without it the controller is
# inoperable. tests/e2e/test_image.py builds from exactly the files copied here.
COPY pyproject.toml setup.py README.md constraints.txt ./
COPY jackpot ./jackpot
COPY table_adapter ./table_adapter
RUN pip wheel --no-cache-dir --wheel-dir /wheels -c constraints.txt .

FROM python:3.11-slim
RUN useradd --system --uid 10001 --home-dir /data --create-home jackpot
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER jackpot
WORKDIR /data
ENV JACKPOT_BIND=0.0.0.0:8000 \
    JACKPOT_SIGNS_BIND=0.0.0.0:8001 \
    JACKPOT_DATA_DIR=/data/var \
    JACKPOT_LOG_FORMAT=json \
    JACKPOT_ACCESS_LOG=- \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
# 8000: the API (jackpot serve); 8001: the signs, when the container runs `signs` instead
EXPOSE 8000 8001
# healthy means doing its job, for whichever process the container runs (PID 1's command):
# serve answers /readyz, signs answers /healthz and reads the store, a worker's heartbeat in
# the store is fresh (`jackpot healthcheck --help`)
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["jackpot", "healthcheck"]
# `jackpot serve` forwards SIGTERM to gunicorn for a graceful stop. The sign process is the
# same image with the command `signs`, the worker with `worker` (compose.yaml runs all three).
ENTRYPOINT ["jackpot"]
CMD ["serve"]
