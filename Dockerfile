# Staunton: multi-stage build, small runtime image, non-root.
# Build:  docker build -t staunton .
# Run:    docker run --rm -p 8080:8080 staunton

FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY assets ./assets
COPY benches ./benches
RUN cargo build --release --locked --bin staunton \
 && strip target/release/staunton

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin staunton
COPY --from=build /src/target/release/staunton /usr/local/bin/staunton
USER staunton
ENV STAUNTON_ADDR=0.0.0.0:8080 \
    STAUNTON_CACHE_SIZE=128MiB \
    RUST_LOG=info
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/staunton"]
CMD ["serve"]
