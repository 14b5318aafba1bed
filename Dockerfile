# Builds sextantd on Debian 12 with the same dependency script as the README's commands, and
# ships the binary in a slim Debian runtime with only the shared libraries it links
# (tests/dockerfile/runtime_libraries.py checks the list against `ldd`; tests/dockerfile/lint.sh
# runs hadolint, since no container engine runs in CI).
FROM debian:12.11 AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/
RUN scripts/install-deps.sh
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEXTANT_TESTS=OFF -DSEXTANT_BENCH=OFF \
 && cmake --build /build --target sextantd

FROM debian:12.11-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 libyaml-cpp0.7 libyaml-0-2 libspdlog1.10 libfmt9 libsimdjson14 libre2-9 libabsl20220623 zlib1g ca-certificates \
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
