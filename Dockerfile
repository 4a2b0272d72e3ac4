# Staunton's container image: the static Linux binary that scripts/dist.sh packs, on an empty
# base (FROM scratch: no shell, no package manager, no libc), run as uid 10001, with a small
# Japanese font for captions and a health check that is the binary itself.
#
# Build:  scripts/dist.sh                  # fills dist/ with the static binary's tarball
#         docker build -t staunton .
#         docker build --build-arg WITH_PYCHESS_SETS=1 -t staunton .   # + pychess's piece sets
# Run:    docker run --rm -p 8080:8080 staunton
#
# The build context is the repository; .dockerignore lets in dist/'s static tarballs alone.
# The helper stages use Debian only to unpack, to write /etc/passwd and to fetch Debian's
# packages of the font and the piece sets; nothing of Debian itself reaches the image. They run
# on the builder's own platform (nothing they make depends on it), so an arm64 image built on
# x86_64 (docker buildx build --platform linux/arm64) needs no emulation.

ARG VERSION=0.1.0

# The static binary for the build's architecture, from dist/.
FROM --platform=$BUILDPLATFORM debian:bookworm-slim AS binary
ARG VERSION
ARG TARGETARCH
# The whole context, which .dockerignore cuts down to dist/'s tarballs (none: a clear error below).
COPY . /context/
RUN set -eu; \
    arch=${TARGETARCH:-$(dpkg --print-architecture)}; \
    case "$arch" in \
      amd64 | x86_64) arch=x86_64 ;; \
      arm64 | aarch64) arch=aarch64 ;; \
      *) echo "no static binary is built for $arch (only amd64 and arm64)" >&2; exit 1 ;; \
    esac; \
    name=staunton-$VERSION-$arch-unknown-linux-musl; \
    if [ ! -f "/context/dist/$name.tar.gz" ]; then \
      echo "dist/$name.tar.gz is missing: run scripts/dist.sh first" >&2; exit 1; \
    fi; \
    tar -xzf "/context/dist/$name.tar.gz" -C /tmp; \
    mkdir -p /out/usr/local/bin /out/usr/share/doc/staunton; \
    install -m 0755 "/tmp/$name/staunton" /out/usr/local/bin/staunton; \
    cp "/tmp/$name/README.md" "/tmp/$name/LICENSE-MIT" "/tmp/$name/LICENSE-APACHE" \
      /out/usr/share/doc/staunton/

# Everything else the image holds: its users, the font, the optional piece sets, /tmp.
FROM --platform=$BUILDPLATFORM debian:bookworm-slim AS files
# Motoya L Cedar (Apache-2.0): kana and the 6,355 kanji of JIS X 0208 in 1.9 MB.
ARG FONT_PACKAGE=fonts-motoya-l-cedar
ARG FONT_FILE=usr/share/fonts/truetype/motoya-l-cedar/MTLc3m.ttf
ARG WITH_PYCHESS_SETS=0
RUN set -eu; \
    mkdir -p /out/etc /out/tmp /out/usr/share/staunton/fonts /out/usr/share/staunton/pieces; \
    chmod 1777 /out/tmp; \
    printf '%s\n' 'root:x:0:0:root:/:/nonexistent' \
      'staunton:x:10001:10001:staunton:/nonexistent:/nonexistent' > /out/etc/passwd; \
    printf '%s\n' 'root:x:0:' 'staunton:x:10001:' > /out/etc/group; \
    cd /tmp; \
    apt-get update; \
    apt-get download "$FONT_PACKAGE"; \
    dpkg-deb -x "$FONT_PACKAGE"_*.deb /tmp/font; \
    cp "/tmp/font/$FONT_FILE" /out/usr/share/staunton/fonts/; \
    mkdir -p "/out/usr/share/doc/$FONT_PACKAGE"; \
    cp "/tmp/font/usr/share/doc/$FONT_PACKAGE/copyright" "/out/usr/share/doc/$FONT_PACKAGE/"; \
    cp /usr/share/common-licenses/Apache-2.0 "/out/usr/share/doc/$FONT_PACKAGE/"; \
    if [ "$WITH_PYCHESS_SETS" = 1 ]; then \
      apt-get download pychess; \
      dpkg-deb -x pychess_*.deb /tmp/pychess; \
      cp -r /tmp/pychess/usr/share/pychess/pieces/. /out/usr/share/staunton/pieces/; \
      mkdir -p /out/usr/share/doc/pychess; \
      cp /tmp/pychess/usr/share/doc/pychess/copyright /out/usr/share/doc/pychess/; \
    fi; \
    rm -rf /tmp/font /tmp/pychess /tmp/*.deb /var/lib/apt/lists/*

FROM scratch
ARG VERSION
# The public repository, given by the release workflow (--build-arg SOURCE=https://…).
ARG SOURCE=""
LABEL org.opencontainers.image.title="Staunton" \
      org.opencontainers.image.description="Chess diagrams from FEN over HTTP: PNG, SVG, PDF, WebP, GIF" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.licenses="MIT OR Apache-2.0" \
      org.opencontainers.image.source=$SOURCE
COPY --from=files /out/ /
COPY --from=binary /out/ /
USER 10001:10001
ENV STAUNTON_ADDR=0.0.0.0:8080 \
    STAUNTON_CACHE_SIZE=128MiB \
    STAUNTON_PIECES_DIR=/usr/share/staunton/pieces \
    STAUNTON_FONTS=/usr/share/staunton/fonts \
    RUST_LOG=info
EXPOSE 8080
# `staunton health` asks /health of the address in STAUNTON_ADDR (0.0.0.0 as 127.0.0.1).
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/staunton", "health"]
ENTRYPOINT ["/usr/local/bin/staunton"]
CMD ["serve"]
