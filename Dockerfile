# The controller as a container. Point JACKPOT_REDIS_URL at the production Redis; without it
# the container runs the embedded store in /data (mount a volume there to keep the meters).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md constraints.txt ./
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
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
# 8000: the API (jackpot serve); 8001: the signs, when the container runs `signs` instead
EXPOSE 8000 8001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)" || exit 1
# `jackpot serve` forwards SIGTERM to gunicorn for a graceful stop. The sign process is the
# same image with the command `signs` (and the same JACKPOT_REDIS_URL); its health is
# /healthz on 8001, so override the healthcheck for it.
ENTRYPOINT ["jackpot"]
CMD ["serve"]
