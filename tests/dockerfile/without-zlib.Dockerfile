# The Dockerfile without zlib1g in its runtime stage: runtime_libraries.py must reject it.
FROM debian:12.11 AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/
RUN scripts/install-deps.sh
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_TESTS=OFF -DSEXTANT_BENCH=OFF \
 && cmake --build /build --target sextantd

FROM debian:12.11-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 libyaml-cpp0.7 libyaml-0-2 libspdlog1.10 libfmt9 libsimdjson14 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /build/cmd/sextantd/sextantd /usr/local/bin/sextantd
COPY config/sextantd.yaml /etc/sextantd/sextantd.yaml
COPY examples/demo-cluster /usr/share/sextantd/demo-cluster
# No shell login, no home: a numeric non-root user, as the Deployment's securityContext expects.
USER 65532:65532
# 8080: the API; 8081: /healthz and /readyz (--probe-listen).
EXPOSE 8080 8081
ENTRYPOINT ["/usr/local/bin/sextantd"]
CMD ["--in-cluster", "--listen", "0.0.0.0:8080", "--probe-listen", "0.0.0.0:8081"]
