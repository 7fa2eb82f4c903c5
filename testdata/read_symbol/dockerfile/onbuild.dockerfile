FROM python:3.12-slim
ENV PYTHONUNBUFFERED=1
HEALTHCHECK CMD curl -f http://localhost/ || exit 1
ONBUILD COPY . /app
