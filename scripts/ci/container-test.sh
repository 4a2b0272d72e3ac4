#!/usr/bin/env bash
# Builds the repository's Dockerfile, unchanged and as committed (HEAD), with podman on a machine
# that reaches Debian's packages and crates.io but no container registry, then runs the image and
# checks it: /health and /ready answer 200, /diagram?fen=start is a PNG, the server runs as uid
# 10001, and SIGTERM (podman stop) ends it with exit code 0. Prints each step's time and the
# image size.
#
# Run as root on Debian 12 (as CI does): bash scripts/ci/container-test.sh
#
# The images the Dockerfile's FROM lines name are not pulled but stood in for by local images: a
# Debian 12 root filesystem made with mmdebstrap, slimmed as debian:bookworm-slim is, and a Rust
# toolchain image on top of it (Debian's rustc-web/cargo-web). They are kept between runs, and
# podman reuses the Dockerfile's cached layers while HEAD's sources are unchanged, so a rerun
# takes seconds. REBUILD_BASE=1 remakes the stand-ins. See shared/notes/containers.md for the
# recipe and for what a red run's messages mean.
set -euo pipefail
cd "$(dirname "$0")/../.."

IMAGE=localhost/staunton:container-test
BASE_IMAGE=localhost/staunton-standin/debian:bookworm-slim
TOOLCHAIN_IMAGE=localhost/staunton-standin/rust-toolchain:bookworm
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
EXPECTED_UID=10001
HEALTH_TIMEOUT=30

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

work=$(mktemp -d /tmp/staunton-container-test.XXXXXX)
container=''
standin_tags=()
cleanup() {
    local rc=$?
    set +e
    [[ -z $container ]] || podman rm -f -t 0 "$container" >/dev/null 2>&1
    # Drop the docker.io names given to the stand-ins, so no fake "official" image stays behind;
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
# podman work on them are the repository's own (the README's Docker route points at them).
export CONTAINERS_CONF=$PWD/deploy/podman/containers.conf

# --- build context ----------------------------------------------------------------------------
# HEAD exported with `git archive`, not the work tree: this keeps anything uncommitted out and
# builds exactly what a clean clone holds (the .dockerignore in it then applies as it would).
step "build context (git archive HEAD)"
ctx=$work/context
mkdir "$ctx"
echo "HEAD = $(git rev-parse --short HEAD)"
git archive --format=tar HEAD | tar -xf - -C "$ctx"
[[ -f $ctx/Dockerfile ]] || die "no Dockerfile at the repository root"

# Which stand-in each FROM image gets (FROMs naming an earlier stage need none). Anything the
# stand-ins cannot be fails here, before any work is done.
from_debian=()
from_rust=()
while read -r img; do
    name=${img#docker.io/}
    case ${name#library/} in
        debian:bookworm-slim | debian:bookworm | debian:12-slim | debian:12) from_debian+=("$img") ;;
        rust:*bookworm) from_rust+=("$img") ;;
        *) die "FROM $img: no stand-in for it (only Debian 12 and rust:*bookworm images)" ;;
    esac
done < <(awk 'toupper($1) == "FROM" {
        img = $2; for (i = 2; i <= NF && img ~ /^--/; i++) img = $(i + 1)
        if (!(tolower(img) in stage) && !(img in seen)) { seen[img] = 1; print img }
        if (toupper($(NF - 1)) == "AS") stage[tolower($NF)] = 1
    }' "$ctx/Dockerfile")
echo "FROM images stood in for: ${from_debian[*]} ${from_rust[*]}"
end_step

# --- stand-in images --------------------------------------------------------------------------
if [[ ${REBUILD_BASE:-0} != 1 ]] && podman image exists "$BASE_IMAGE"; then
    skipped "Debian 12 base image (mmdebstrap + import)"
else
    step "Debian 12 base image (mmdebstrap + import)"
    # Debian 12 from deb.debian.org (mmdebstrap's default, with updates and security), without
    # what debian:bookworm-slim leaves out (documentation, man pages, translations) or apt lists.
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
    REBUILD_BASE=1 # the toolchain image is built on it
fi

if ((${#from_rust[@]})); then
    if [[ ${REBUILD_BASE:-0} != 1 ]] && podman image exists "$TOOLCHAIN_IMAGE"; then
        skipped "Rust toolchain image (rustc-web, cargo-web)"
    else
        step "Rust toolchain image (rustc-web, cargo-web)"
        # Debian 12's plain rustc is 1.63, too old for edition 2024; rustc-web is current.
        # The package proxy re-signs TLS, so cargo needs the host's CA bundle: it goes into this
        # stand-in (and so into the build stage), not into the image the Dockerfile produces.
        mkdir "$work/toolchain"
        cp "$CA_BUNDLE" "$work/toolchain/ca-certificates.crt"
        cat >"$work/toolchain/Containerfile" <<EOF
FROM $BASE_IMAGE
RUN apt-get update \\
 && apt-get install -y --no-install-recommends rustc-web cargo-web ca-certificates \\
 && rm -rf /var/lib/apt/lists/*
COPY ca-certificates.crt $CA_BUNDLE
EOF
        podman build --pull=never -t "$TOOLCHAIN_IMAGE" "$work/toolchain"
        end_step
    fi
    echo "stand-in toolchain: $(podman run --rm --network none "$TOOLCHAIN_IMAGE" rustc --version)"
fi

# Give the stand-ins the names the FROM lines use (taken away again on exit).
for n in "${from_debian[@]}"; do podman tag "$BASE_IMAGE" "$n"; standin_tags+=("$BASE_IMAGE=$n"); done
for n in "${from_rust[@]}"; do podman tag "$TOOLCHAIN_IMAGE" "$n"; standin_tags+=("$TOOLCHAIN_IMAGE=$n"); done

# --- the Dockerfile, unchanged ----------------------------------------------------------------
step "podman build of the Dockerfile (cargo build inside)"
podman build --pull=never -f "$ctx/Dockerfile" -t "$IMAGE" "$ctx"
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
podman run -d --name "$container" --network host -e STAUNTON_ADDR="127.0.0.1:$port" "$IMAGE" >/dev/null
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

step "checks: /ready, /diagram PNG, uid"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$url/ready")
[[ $code == 200 ]] || die "/ready answered $code, not 200"
echo "/ready 200"
code=$(curl -s -o "$work/start.png" -w '%{http_code}' --max-time 30 "$url/diagram?fen=start")
[[ $code == 200 ]] || die "/diagram?fen=start answered $code, not 200"
magic=$(head -c 8 "$work/start.png" | od -An -tx1 | tr -d ' \n')
[[ $magic == 89504e470d0a1a0a ]] || die "/diagram?fen=start is not a PNG (it starts with $magic)"
echo "/diagram?fen=start: PNG, $(stat -c %s "$work/start.png") bytes"
# The server process itself, seen from the host (rootful podman, no user namespace).
pid=$(podman inspect -f '{{.State.Pid}}' "$container")
uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
[[ $uid == "$EXPECTED_UID" ]] || die "the server process runs as uid $uid, not $EXPECTED_UID"
echo "server process (host pid $pid) runs as uid $uid"
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
size=$(podman image inspect -f '{{.Size}}' "$IMAGE")
echo; echo "=== summary"
printf '%s\n' "${timings[@]}"
printf '%-52s %10s\n' total "$(fmt_ms $(( $(now_ms) - t_start )))"
echo "image $IMAGE: $(( size / 1000000 )) MB ($size bytes)"
echo "container-test: PASS"
