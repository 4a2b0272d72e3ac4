# Staunton: multi-stage build, small runtime image, non-root.
# Build:  docker build -t staunton .
#         docker build --build-arg WITH_PYCHESS_SETS=1 -t staunton .   # + pychess's piece sets
# Run:    docker run --rm -p 8080:8080 staunton

FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY assets ./assets
COPY benches ./benches
RUN cargo build --release --locked --bin staunton \
 && strip target/release/staunton

# Optional third-party piece sets: only the SVG folders of Debian's pychess package.
FROM debian:bookworm-slim AS pieces
ARG WITH_PYCHESS_SETS=0
RUN mkdir -p /pieces \
 && if [ "$WITH_PYCHESS_SETS" = 1 ]; then \
      apt-get update \
      && apt-get download pychess \
      && dpkg-deb -x pychess_*.deb /tmp/pychess \
      && cp -r /tmp/pychess/usr/share/pychess/pieces/. /pieces/ \
      && rm -rf /tmp/pychess pychess_*.deb /var/lib/apt/lists/*; \
    fi

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin staunton
COPY --from=build /src/target/release/staunton /usr/local/bin/staunton
COPY --from=pieces /pieces /usr/share/staunton/pieces
USER staunton
ENV STAUNTON_ADDR=0.0.0.0:8080 \
    STAUNTON_CACHE_SIZE=128MiB \
    STAUNTON_PIECES_DIR=/usr/share/staunton/pieces \
    RUST_LOG=info
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/staunton"]
CMD ["serve"]
