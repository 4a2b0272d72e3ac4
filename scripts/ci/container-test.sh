#!/usr/bin/env bash
# Builds the repository's Dockerfile, as committed (HEAD), with podman on a machine that reaches
# Debian's packages but no container registry, from the static binary's tarball that
# scripts/dist.sh left in dist/ (run it first), then runs the image and checks it: /health and
# /ready answer 200, /diagram?fen=start is a PNG, a Japanese caption is drawn with the font the
# image carries, the server runs as uid 10001, the image has no shell, `podman healthcheck run`
# (the image's own HEALTHCHECK, `staunton health`) says healthy, the version label is the
# binary's version, SIGTERM (podman stop) ends it with exit code 0, and the image is under
# 25 MB. Prints each step's time and the image size.
#
# Run as root on Debian 12 (as CI does): scripts/dist.sh && bash scripts/ci/container-test.sh
#
# The Debian image the Dockerfile's helper stages name is not pulled but stood in for by a local
# one: a Debian 12 root filesystem made with mmdebstrap, slimmed as debian:bookworm-slim is. It
# is kept between runs (REBUILD_BASE=1 remakes it), and podman reuses the Dockerfile's cached
# layers while the context is unchanged, so a rerun takes seconds. See shared/notes/containers.md
# for the recipe and for what a red run's messages mean.
set -euo pipefail
cd "$(dirname "$0")/../.."

IMAGE=localhost/staunton:container-test
BASE_IMAGE=localhost/staunton-standin/debian:bookworm-slim
EXPECTED_UID=10001
HEALTH_TIMEOUT=30
MAX_IMAGE_BYTES=25000000 # the book's goal: under 25 MB
# Kana and kanji, percent-encoded: 「将棋の図 ひらがな カタカナ」.
JAPANESE_CAPTION='%E5%B0%86%E6%A3%8B%E3%81%AE%E5%9B%B3%20%E3%81%B2%E3%82%89%E3%81%8C%E3%81%AA%20%E3%82%AB%E3%82%BF%E3%82%AB%E3%83%8A'

die() { echo "container-test: FAIL: $*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
fmt_ms() { printf '%d.%d s' $(( $1 / 1000 )) $(( $1 % 1000 / 100 )); }

# Steps and their times, printed again in the summary.
timings=()
step_name=''
step_t0=0
t_start=$(now_ms)
step() {
    end_step
    step_name=$1
    step_t0=$(now_ms)
    echo; echo "=== $step_name"
}
end_step() {
    [[ -n $step_name ]] || return 0
    local t; t=$(fmt_ms $(( $(now_ms) - step_t0 )))
    timings+=("$(printf '%-52s %10s' "$step_name" "$t")")
    echo "--- $step_name: $t"
    step_name=''
}
skipped() { timings+=("$(printf '%-52s %10s' "$1" cached)"); echo; echo "=== $1: cached"; }

[[ $(id -u) == 0 ]] || die "run as root (rootful podman, mmdebstrap --mode=root)"

# The static binary's tarball(s), made by scripts/dist.sh; checked before anything is installed.
shopt -s nullglob
tarballs=(dist/staunton-*-unknown-linux-musl.tar.gz)
shopt -u nullglob
((${#tarballs[@]})) || die "dist/ has no staunton-*-unknown-linux-musl.tar.gz: run scripts/dist.sh first"

work=$(mktemp -d /tmp/staunton-container-test.XXXXXX)
container=''
standin_tags=()
cleanup() {
    local rc=$?
    set +e
    [[ -z $container ]] || podman rm -f -t 0 "$container" >/dev/null 2>&1
    # Drop the docker.io names given to the stand-in, so no fake "official" image stays behind;
    # the layer cache is keyed by image id, not name, and survives this.
    for t in "${standin_tags[@]}"; do podman untag "${t%%=*}" "${t#*=}" >/dev/null 2>&1; done
    rm -rf "$work"
    [[ $rc == 0 ]] || echo "container-test: failed (exit $rc) during: ${step_name:-?}" >&2
}
trap cleanup EXIT

# --- tools ------------------------------------------------------------------------------------
step "install podman, buildah, mmdebstrap, runc, uidmap"
missing=0
for tool in podman buildah mmdebstrap runc newuidmap curl git; do
    command -v "$tool" >/dev/null || missing=1
done
if ((missing)); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q -o DPkg::Lock::Timeout=300 \
        podman buildah mmdebstrap runc uidmap curl git ca-certificates
else
    echo "already installed"
fi
podman --version

# These machines cannot raise resource limits and have hybrid cgroups: the settings that make
# podman work on them are the repository's own (the book's deploying chapter points at them).
export CONTAINERS_CONF=$PWD/deploy/podman/containers.conf

# --- build context ----------------------------------------------------------------------------
# HEAD exported with `git archive`, not the work tree: this keeps anything uncommitted out and
# builds exactly what a clean clone holds (the .dockerignore in it then applies as it would),
# plus dist/'s tarballs, which are made, not committed.
step "build context (git archive HEAD + dist/ tarballs)"
ctx=$work/context
mkdir "$ctx"
echo "HEAD = $(git rev-parse --short HEAD)"
git archive --format=tar HEAD | tar -xf - -C "$ctx"
[[ -f $ctx/Dockerfile ]] || die "no Dockerfile at the repository root"
mkdir -p "$ctx/dist"
for t in "${tarballs[@]}"; do
    cp "$t" "$ctx/dist/"
    echo "$t: $(stat -c %s "$t") bytes"
done

# Which FROM images need the Debian stand-in (FROMs naming an earlier stage, and scratch, need
# none). Anything it cannot stand in for fails here, before any work is done.
from_debian=()
while read -r img; do
    name=${img#docker.io/}
    case ${name#library/} in
        debian:bookworm-slim | debian:bookworm | debian:12-slim | debian:12) from_debian+=("$img") ;;
        *) die "FROM $img: no stand-in for it (only Debian 12 images and scratch)" ;;
    esac
done < <(awk 'toupper($1) == "FROM" {
        img = $2; for (i = 2; i <= NF && img ~ /^--/; i++) img = $(i + 1)
        if (!(tolower(img) in stage) && img != "scratch" && !(img in seen)) { seen[img] = 1; print img }
        if (toupper($(NF - 1)) == "AS") stage[tolower($NF)] = 1
    }' "$ctx/Dockerfile")
echo "FROM images stood in for: ${from_debian[*]:-none}"
end_step

# --- stand-in image ---------------------------------------------------------------------------
if ((${#from_debian[@]})); then
    if [[ ${REBUILD_BASE:-0} != 1 ]] && podman image exists "$BASE_IMAGE"; then
        skipped "Debian 12 base image (mmdebstrap + import)"
    else
        step "Debian 12 base image (mmdebstrap + import)"
        # Debian 12 from deb.debian.org (mmdebstrap's default, with updates and security),
        # without what debian:bookworm-slim leaves out (documentation, man pages, translations)
        # or apt lists. /usr/share/common-licenses (base-files) stays, as in the real image.
        # shellcheck disable=SC2016 # "$1" is for the hook, not this shell
        mmdebstrap --variant=minbase --mode=root --format=tar \
            --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
            --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
            --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
            --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/overrides/*' \
            --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
            bookworm "$work/rootfs.tar"
        podman import --change 'CMD ["bash"]' "$work/rootfs.tar" "$BASE_IMAGE"
        rm -f "$work/rootfs.tar"
        end_step
    fi
    # Give the stand-in the names the FROM lines use (taken away again on exit).
    for n in "${from_debian[@]}"; do podman tag "$BASE_IMAGE" "$n"; standin_tags+=("$BASE_IMAGE=$n"); done
fi

# --- the Dockerfile, unchanged ----------------------------------------------------------------
# --format docker: the OCI image format has no HEALTHCHECK, and podman would drop it.
step "podman build of the Dockerfile"
podman build --pull=never --format docker -f "$ctx/Dockerfile" -t "$IMAGE" "$ctx"
end_step

step "the image: size, files, no shell, version label"
size=$(podman image inspect -f '{{.Size}}' "$IMAGE")
echo "image $IMAGE: $(( size / 1000 )) kB ($size bytes)"
# Every file the image holds, with its size (a container is made, not started, to export it).
podman create --no-healthcheck --name "staunton-files-$$" "$IMAGE" >/dev/null
podman export "staunton-files-$$" | tar -tvf - | awk '$1 !~ /^d/ {print "  " $3, $6}' | sort -k2
podman rm "staunton-files-$$" >/dev/null
(( size < MAX_IMAGE_BYTES )) || die "the image is $size bytes, over the goal of $MAX_IMAGE_BYTES"
if podman run --rm --no-healthcheck --network none --entrypoint /bin/sh "$IMAGE" -c true >/dev/null 2>&1; then
    die "the image has a shell: /bin/sh ran"
fi
echo "no shell: --entrypoint /bin/sh cannot run"
label=$(podman image inspect -f '{{index .Labels "org.opencontainers.image.version"}}' "$IMAGE")
binary=$(podman run --rm --no-healthcheck --network none "$IMAGE" --version)
[[ $binary == "staunton $label" ]] || die "the label says version '$label', the binary '$binary'"
echo "version label $label = the binary's ($binary)"
healthcheck=$(podman image inspect -f '{{.HealthCheck}}' "$IMAGE" 2>/dev/null || true)
[[ $healthcheck == *health* ]] || die "the image has no HEALTHCHECK running 'staunton health' ($healthcheck)"
echo "HEALTHCHECK: $healthcheck"
end_step

# --- run and check ----------------------------------------------------------------------------
step "run: start to first 200 on /health"
# Host network on a loopback address, so nothing is exposed; a free port picked at random.
port=''
for _ in {1..50}; do
    p=$(( 20000 + RANDOM % 20000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
done
[[ -n $port ]] || die "no free loopback port found"
url=http://127.0.0.1:$port
container=staunton-test-$$
# The image's health check is kept (`podman healthcheck run` below) but not put on a timer: podman
# does that with systemd, which CI's machines do not run. Podman 4.3 still tries, and logs
# "unable to get systemd connection to add healthchecks" (and to remove them): harmless here.
podman run -d --name "$container" --health-interval disable --network host -e STAUNTON_ADDR="127.0.0.1:$port" "$IMAGE" >/dev/null
deadline=$(( $(now_ms) + HEALTH_TIMEOUT * 1000 ))
until [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/health" || true) == 200 ]]; do
    if [[ $(podman inspect -f '{{.State.Running}}' "$container") != true ]]; then
        podman logs "$container" >&2 || true
        die "the container exited before /health answered"
    fi
    if (( $(now_ms) > deadline )); then
        podman logs "$container" >&2 || true
        die "/health did not answer 200 within ${HEALTH_TIMEOUT}s"
    fi
    sleep 0.1
done
echo "/health 200 on $url"
end_step

step "checks: /ready, PNGs, caption, uid, health check"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$url/ready")
[[ $code == 200 ]] || die "/ready answered $code, not 200"
echo "/ready 200"
png() { # NAME QUERY: GET /diagram?QUERY into $work/NAME.png, which must be a 200 PNG
    local code magic
    code=$(curl -s -o "$work/$1.png" -w '%{http_code}' --max-time 30 "$url/diagram?$2")
    [[ $code == 200 ]] || die "/diagram?$2 answered $code, not 200"
    magic=$(head -c 8 "$work/$1.png" | od -An -tx1 | tr -d ' \n')
    [[ $magic == 89504e470d0a1a0a ]] || die "/diagram?$2 is not a PNG (it starts with $magic)"
    echo "/diagram?$2: PNG, $(stat -c %s "$work/$1.png") bytes"
}
png start 'fen=start'
png japanese "fen=start&caption=$JAPANESE_CAPTION"
# The caption's kana and kanji come from the image's font, which the service names at start.
fonts=$(podman logs "$container" 2>&1 | grep 'fonts added' || true)
[[ -n $fonts ]] || die "the service's log does not name the fonts of STAUNTON_FONTS (no 'fonts added' line)"
echo "$fonts"
[[ -z ${KEEP_PNG:-} ]] || cp "$work/japanese.png" "$KEEP_PNG"
# The server process itself, seen from the host (rootful podman, no user namespace).
pid=$(podman inspect -f '{{.State.Pid}}' "$container")
uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
[[ $uid == "$EXPECTED_UID" ]] || die "the server process runs as uid $uid, not $EXPECTED_UID"
echo "server process (host pid $pid) runs as uid $uid"
# The image's own HEALTHCHECK (`staunton health`), run inside the container now.
podman healthcheck run "$container" || die "podman healthcheck run: not healthy (exit $?)"
echo "podman healthcheck run: healthy"
end_step

step "podman stop (SIGTERM) and exit code"
# After SIGTERM the server keeps serving for STAUNTON_DRAIN seconds, then lets requests finish
# for up to STAUNTON_SHUTDOWN_GRACE: give it all that and more before podman's SIGKILL (137).
env_of() { podman inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$container" | sed -n "s/^$1=//p"; }
drain=$(env_of STAUNTON_DRAIN); grace=$(env_of STAUNTON_SHUTDOWN_GRACE)
stop_timeout=$(( ${drain:-0} + ${grace:-10} + 10 ))
t0=$(now_ms)
podman stop -t "$stop_timeout" "$container" >/dev/null
took=$(fmt_ms $(( $(now_ms) - t0 )))
exit_code=$(podman inspect -f '{{.State.ExitCode}}' "$container")
podman logs "$container" 2>&1 | tail -n 3
[[ $exit_code == 0 ]] || die "after SIGTERM the server exited with $exit_code, not 0 (after $took)"
echo "exit code 0, $took after SIGTERM (podman stop -t $stop_timeout)"
end_step

# --- summary ----------------------------------------------------------------------------------
echo; echo "=== summary"
printf '%s\n' "${timings[@]}"
printf '%-52s %10s\n' total "$(fmt_ms $(( $(now_ms) - t_start )))"
echo "image $IMAGE: $(( size / 1000 )) kB ($size bytes; goal: under $MAX_IMAGE_BYTES)"
echo "container-test: PASS"
