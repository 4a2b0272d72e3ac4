#!/usr/bin/env python3
"""Check the deployment files under deploy/ without a cluster.

    python3 deploy/check-deploy.py [--root DIR] [--metrics FILE]

Parses every YAML document in deploy/kubernetes/*.yaml and deploy/prometheus/*.yml and the
JSON of deploy/grafana/*.json, then checks:

- Kubernetes objects: apiVersion, kind and metadata.name, no kind/name twice; the
  Deployment's containers have CPU and memory requests and limits (requests within limits),
  a liveness probe on /health and a readiness probe on /ready at a port the container
  declares, run as non-root (and not as uid 0) with a read-only root filesystem, no
  privilege escalation and no capabilities, and the pod mounts no service-account token;
  STAUNTON_ADDR is set, listens on a declared port and not on loopback (the kubelet probes
  the pod's IP); the termination grace period covers STAUNTON_DRAIN +
  STAUNTON_SHUTDOWN_GRACE; the Service selects the Deployment's pods and targets a port they
  declare; the HorizontalPodAutoscaler scales that Deployment on CPU; the
  PodDisruptionBudget selects its pods.
- Prometheus: every alert has alert, expr, for, labels.severity and annotations.summary and
  .description; there are alerts on the 5xx rate, on render-queue saturation and on memory
  near the limit; every metric an expression uses is one Staunton exports (or `up`); the
  configuration's and the rule tests' rule files exist.
- Grafana: a `datasource` variable, and every panel has a datasource that uses it, targets
  with an expr, and uses only known metrics.

With promtool on PATH (Debian: prometheus) it also runs `promtool check rules`, `promtool
check config` and `promtool test rules` (on the files with `tests:`, e.g. alerts.test.yml),
and has promtool parse every dashboard expression. Where a Kubernetes schema validator is
there, the manifests are validated against the Kubernetes API schemas, strictly (unknown
fields are errors): kubernetes-validate (PyPI; bundles the schemas, works offline) as a
command on PATH or a module this Python imports, and kubeconform (`-strict -summary`) on
PATH. With --require-tools, a missing promtool or schema validator is a problem rather than a
note (for CI, where they are installed). With --metrics FILE (the text of a replica's
/metrics), every metric the alerts and the dashboard use must appear in it.

Needs PyYAML (Debian: python3-yaml). Prints one line per problem and exits 1 if there is any;
otherwise prints a one-line summary and exits 0.
"""

import argparse
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("check-deploy: needs PyYAML: apt-get install python3-yaml (or pip install pyyaml)")
    sys.exit(2)

# The metrics Staunton exports, as the alerts and the dashboard may use them.
KNOWN_METRICS = {
    "staunton_requests_total",
    "staunton_renders_total",
    "staunton_render_seconds_bucket",
    "staunton_render_seconds_count",
    "staunton_render_seconds_sum",
    "staunton_render_queue_depth",
    "staunton_render_queue_limit",
    "staunton_rejected_total",
    "staunton_cache_hits_total",
    "staunton_cache_misses_total",
    "staunton_cache_entries",
    "staunton_cache_weighted_bytes",
    "staunton_cache_bytes",
    "staunton_cache_bound_bytes",
    "staunton_cache_entries_held",
    "staunton_memory_limit_bytes",
    "staunton_build_info",
    "process_resident_memory_bytes",
}
# Series Prometheus makes itself for every target.
SYNTHETIC_METRICS = {"up"}

# Alerts the deployment must have: (what, test of an alert's expression and its metric names).
REQUIRED_ALERTS = (
    ("the 5xx rate",
     lambda expr, names: "staunton_requests_total" in names
     and re.search(r"status\s*=~\s*[\"']5", expr) is not None),
    ("render-queue saturation",
     lambda expr, names: {"staunton_render_queue_depth", "staunton_render_queue_limit"} <= names),
    ("memory near the limit",
     lambda expr, names: {"process_resident_memory_bytes", "staunton_memory_limit_bytes"} <= names),
)

PROMQL_KEYWORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right",
    "bool", "offset", "inf", "nan", "start", "end",
}

problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def get(obj, *path, default=None):
    """obj[path[0]][path[1]]…, or default where a step is missing or not a mapping/list."""
    for key in path:
        if isinstance(obj, dict) and key in obj:
            obj = obj[key]
        elif isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj):
            obj = obj[key]
        else:
            return default
    return obj


# --- quantities -----------------------------------------------------------------------------

MEMORY_SUFFIXES = {
    "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40,
    "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "": 1,
}


def cpu_cores(value):
    """Kubernetes CPU quantity as cores ("500m" → 0.5, "2" → 2.0), or None."""
    text = str(value)
    try:
        return float(text[:-1]) / 1000 if text.endswith("m") else float(text)
    except ValueError:
        return None


def memory_bytes(value):
    """Kubernetes memory quantity in bytes ("256Mi" → 268435456), or None."""
    match = re.fullmatch(r"([0-9.]+)(Ki|Mi|Gi|Ti|k|M|G|T|)", str(value))
    if not match:
        return None
    return float(match.group(1)) * MEMORY_SUFFIXES[match.group(2)]


# --- PromQL ---------------------------------------------------------------------------------

def metric_names(expr):
    """The metric names a PromQL expression selects (functions, labels and keywords left out)."""
    text = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)            # label matchers
    text = re.sub(r"\[[^\]]*\]", " ", text)           # ranges and subqueries
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for match in re.finditer(r"(?<![\w.$:])([A-Za-z_:][A-Za-z0-9_:]*)(?![\w:])(?!\s*\()", text):
        name = match.group(1)
        if name.lower() not in PROMQL_KEYWORDS:
            names.add(name)
    return names


def check_metrics(where, expr, used):
    for name in sorted(metric_names(expr)):
        used.add(name)
        if name not in KNOWN_METRICS and name not in SYNTHETIC_METRICS:
            problem(where, f"unknown metric {name!r} in {one_line(expr)!r}")


def one_line(text, limit=90):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def grafana_expr(expr):
    """A dashboard expression with Grafana's interval variables made concrete, for promtool."""
    for var, value in (("$__rate_interval", "5m"), ("${__rate_interval}", "5m"),
                       ("$__interval", "1m"), ("${__interval}", "1m"),
                       ("$__range", "1h"), ("${__range}", "1h")):
        expr = expr.replace(var, value)
    return expr


# --- files ----------------------------------------------------------------------------------

def load_yaml_documents(path, rel):
    try:
        with open(path, encoding="utf-8") as f:
            return [doc for doc in yaml.safe_load_all(f) if doc is not None]
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem(rel, f"not valid YAML: {at}{e.problem or e.context}")
        return []
    except (OSError, yaml.YAMLError) as e:
        problem(rel, f"not valid YAML: {one_line(e, 200)}")
        return []


# --- Kubernetes -----------------------------------------------------------------------------

def selects(selector, labels):
    """True when every key/value of a matchLabels-style selector is in labels."""
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def check_kubernetes(root, files):
    objects = []
    for path in files:
        rel = os.path.relpath(path, root)
        for index, doc in enumerate(load_yaml_documents(path, rel)):
            where = f"{rel} (document {index + 1})"
            if not isinstance(doc, dict):
                problem(where, "not a mapping")
                continue
            for field in ("apiVersion", "kind"):
                if not doc.get(field):
                    problem(where, f"no {field}")
            name = get(doc, "metadata", "name")
            if not name:
                problem(where, "no metadata.name")
            else:
                where = f"{rel}: {doc.get('kind')}/{name}"
            objects.append((where, doc))

    by_kind, seen = {}, set()
    for where, doc in objects:
        by_kind.setdefault(doc.get("kind"), []).append((where, doc))
        key = (doc.get("kind"), get(doc, "metadata", "name"), get(doc, "metadata", "namespace"))
        if key[1] and key in seen:
            problem(where, "a second object of this kind and name")
        seen.add(key)
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
        if kind not in by_kind:
            problem("deploy/kubernetes", f"no {kind}")

    deployments = {}  # name -> (pod labels, {port name: number}, {numbers})
    for where, doc in by_kind.get("Deployment", []):
        deployments[get(doc, "metadata", "name")] = check_deployment(where, doc)

    for where, doc in by_kind.get("Service", []):
        selector = get(doc, "spec", "selector") or {}
        matched = [d for d in deployments.values() if selects(selector, d[0])]
        if not selector:
            problem(where, "no spec.selector")
        elif not matched:
            problem(where, f"selector {selector} matches no Deployment's pod labels")
        ports = get(doc, "spec", "ports") or []
        if not ports:
            problem(where, "no spec.ports")
        for port in ports:
            target = port.get("targetPort", port.get("port"))
            for labels, named, numbers in matched:
                if isinstance(target, str) and target not in named:
                    problem(where, f"targetPort {target!r} is not a port the pods name "
                                   f"(they name {sorted(named) or 'none'})")
                elif isinstance(target, int) and target not in numbers:
                    problem(where, f"targetPort {target} is not a containerPort of the pods")

    for where, doc in by_kind.get("HorizontalPodAutoscaler", []):
        if doc.get("apiVersion") != "autoscaling/v2":
            problem(where, f"apiVersion {doc.get('apiVersion')!r}, expected autoscaling/v2")
        ref = get(doc, "spec", "scaleTargetRef") or {}
        if ref.get("kind") != "Deployment" or ref.get("name") not in deployments:
            problem(where, f"scaleTargetRef {ref.get('kind')}/{ref.get('name')} is not a "
                           f"Deployment in these files ({sorted(deployments)})")
        metrics = get(doc, "spec", "metrics") or []
        if not any(m.get("type") == "Resource" and get(m, "resource", "name") == "cpu"
                   for m in metrics):
            problem(where, "no CPU metric (type Resource, resource.name cpu)")
        low, high = get(doc, "spec", "minReplicas", default=1), get(doc, "spec", "maxReplicas")
        if not isinstance(high, int) or not isinstance(low, int) or low > high:
            problem(where, f"minReplicas {low} / maxReplicas {high} are not a range")

    for where, doc in by_kind.get("PodDisruptionBudget", []):
        selector = get(doc, "spec", "selector", "matchLabels") or {}
        if not any(selects(selector, d[0]) for d in deployments.values()):
            problem(where, f"selector {selector or 'none'} matches no Deployment's pod labels")
        spec = doc.get("spec") or {}
        if ("minAvailable" in spec) == ("maxUnavailable" in spec):
            problem(where, "needs exactly one of minAvailable and maxUnavailable")

    return len(objects)


def check_deployment(where, doc):
    pod_labels = get(doc, "spec", "template", "metadata", "labels") or {}
    selector = get(doc, "spec", "selector", "matchLabels") or {}
    if not selects(selector, pod_labels):
        problem(where, f"spec.selector {selector or 'none'} does not match the pod labels")
    pod = get(doc, "spec", "template", "spec") or {}
    if pod.get("automountServiceAccountToken") is not False:
        problem(where, "automountServiceAccountToken is not false")
    pod_security = pod.get("securityContext") or {}
    containers = pod.get("containers") or []
    if not containers:
        problem(where, "no containers")
    named, numbers = {}, set()
    for container in containers:
        cw = f"{where} container {container.get('name')!r}"
        ports = container.get("ports") or []
        for port in ports:
            number = port.get("containerPort")
            numbers.add(number)
            if port.get("name"):
                named[port["name"]] = number
        if not ports:
            problem(cw, "declares no ports")

        resources = container.get("resources") or {}
        for kind in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                if get(resources, kind, resource) is None:
                    problem(cw, f"no resources.{kind}.{resource}")
        for resource, parse in (("cpu", cpu_cores), ("memory", memory_bytes)):
            req, lim = get(resources, "requests", resource), get(resources, "limits", resource)
            if req is None or lim is None:
                continue
            if parse(req) is None or parse(lim) is None:
                problem(cw, f"cannot read the {resource} quantities {req!r} / {lim!r}")
            elif parse(req) > parse(lim):
                problem(cw, f"{resource} request {req} is above its limit {lim}")

        for probe, path in (("livenessProbe", "/health"), ("readinessProbe", "/ready")):
            http = get(container, probe, "httpGet")
            if not http:
                problem(cw, f"no {probe}.httpGet")
                continue
            if http.get("path") != path:
                problem(cw, f"{probe} path is {http.get('path')!r}, expected {path!r}")
            port = http.get("port")
            if not (port in named or port in numbers):
                problem(cw, f"{probe} port {port!r} is not a port the container declares")

        security = container.get("securityContext") or {}
        if security.get("runAsNonRoot", pod_security.get("runAsNonRoot")) is not True:
            problem(cw, "runAsNonRoot is not true")
        if security.get("runAsUser", pod_security.get("runAsUser")) == 0:
            problem(cw, "runAsUser is 0 (root)")
        if security.get("readOnlyRootFilesystem") is not True:
            problem(cw, "readOnlyRootFilesystem is not true")
        if security.get("allowPrivilegeEscalation") is not False:
            problem(cw, "allowPrivilegeEscalation is not false")
        if "ALL" not in (get(security, "capabilities", "drop") or []):
            problem(cw, "capabilities.drop does not include ALL")

        env = {e.get("name"): e.get("value") for e in container.get("env") or []}
        addr = env.get("STAUNTON_ADDR")
        if addr is None:
            # The binary's default is 127.0.0.1:8080, which the kubelet's probes cannot reach.
            problem(cw, "no STAUNTON_ADDR value in env (the service's default listens on "
                        "127.0.0.1 only)")
        else:
            host, _, port = str(addr).rpartition(":")
            if not port.isdigit() or int(port) not in numbers:
                problem(cw, f"STAUNTON_ADDR {addr!r} does not listen on a declared containerPort")
            if host.strip("[]") in ("127.0.0.1", "localhost", "::1") or host.startswith("127."):
                problem(cw, f"STAUNTON_ADDR {addr!r} listens on loopback: probes and the "
                            f"Service cannot reach it")
        try:
            drain = int(env.get("STAUNTON_DRAIN") or 0)
            stop = drain + int(env.get("STAUNTON_SHUTDOWN_GRACE") or 10)
        except ValueError:
            problem(cw, "STAUNTON_DRAIN / STAUNTON_SHUTDOWN_GRACE are not whole seconds")
            stop = 0
        grace = pod.get("terminationGracePeriodSeconds", 30)
        if isinstance(grace, int) and grace < stop:
            problem(where, f"terminationGracePeriodSeconds {grace} is shorter than drain + "
                           f"shutdown grace ({stop} s): requests in flight would be killed")

    scrape_port = get(doc, "spec", "template", "metadata", "annotations", "prometheus.io/port")
    if scrape_port is not None and not (str(scrape_port).isdigit() and int(scrape_port) in numbers):
        problem(where, f"prometheus.io/port {scrape_port!r} is not a declared containerPort")
    return pod_labels, named, numbers


# --- Prometheus -----------------------------------------------------------------------------

def check_prometheus(root, files, used, exprs):
    alerts = []  # (where, expr) of every alerting rule
    for path in files:
        rel = os.path.relpath(path, root)
        for doc in load_yaml_documents(path, rel):
            if not isinstance(doc, dict):
                problem(rel, "not a mapping")
            elif "groups" in doc:
                check_rules(rel, doc, used, exprs, alerts)
            elif "tests" in doc:
                check_rule_tests(path, rel, doc)
            elif "scrape_configs" in doc or "rule_files" in doc:
                check_config(path, rel, doc)
            else:
                problem(rel, "neither a rules file (groups:), rule tests (tests:) nor a "
                             "configuration (scrape_configs:)")
    for what, test in REQUIRED_ALERTS:
        if not any(test(str(expr), metric_names(str(expr))) for _, expr in alerts):
            problem("deploy/prometheus", f"no alert on {what}")
    return len(alerts)


def check_rule_tests(path, rel, doc):
    rule_files = doc.get("rule_files") or []
    if not rule_files:
        problem(rel, "rule tests name no rule_files")
    for rule_file in rule_files:
        if not glob.glob(os.path.join(os.path.dirname(path), rule_file)):
            problem(rel, f"rule file {rule_file!r} does not exist beside it")
    if not isinstance(doc.get("tests"), list) or not doc["tests"]:
        problem(rel, "tests is empty or not a list")


def check_rules(rel, doc, used, exprs, alerts):
    groups = doc.get("groups")
    if not isinstance(groups, list) or not groups:
        problem(rel, "groups is empty or not a list")
        return
    for group in groups:
        gname = group.get("name") if isinstance(group, dict) else None
        if not gname:
            problem(rel, "a group has no name")
        for rule in (group or {}).get("rules") or []:
            name = rule.get("alert") or rule.get("record")
            where = f"{rel}: {name or 'a rule with neither alert nor record'}"
            expr = rule.get("expr")
            if not expr:
                problem(where, "no expr")
            else:
                check_metrics(where, expr, used)
                exprs.append((where, expr))
            if "record" in rule:
                continue
            alerts.append((where, expr or ""))
            if not rule.get("alert"):
                problem(where, "no alert name")
            if "for" not in rule:
                problem(where, "no for")
            if not get(rule, "labels", "severity"):
                problem(where, "no labels.severity")
            for key in ("summary", "description"):
                if not get(rule, "annotations", key):
                    problem(where, f"no annotations.{key}")


def check_config(path, rel, doc):
    for rule_file in doc.get("rule_files") or []:
        pattern = os.path.join(os.path.dirname(path), rule_file)
        if not glob.glob(pattern):
            problem(rel, f"rule file {rule_file!r} does not exist beside it")
    jobs = [job.get("job_name") for job in doc.get("scrape_configs") or []]
    if not jobs:
        problem(rel, "no scrape_configs")
    for job in set(jobs):
        if not job:
            problem(rel, "a scrape config has no job_name")
        elif jobs.count(job) > 1:
            problem(rel, f"job_name {job!r} is used twice")


# --- Grafana --------------------------------------------------------------------------------

def uses_variable(datasource):
    uid = datasource.get("uid") if isinstance(datasource, dict) else datasource
    return uid in ("${datasource}", "$datasource")


def all_panels(panels):
    for panel in panels or []:
        yield panel
        yield from all_panels(panel.get("panels"))  # panels inside collapsed rows


def check_grafana(root, files, used, exprs):
    count = 0
    for path in files:
        rel = os.path.relpath(path, root)
        try:
            with open(path, encoding="utf-8") as f:
                board = json.load(f)
        except (OSError, ValueError) as e:
            problem(rel, f"not valid JSON: {one_line(e, 200)}")
            continue
        for field in ("uid", "title", "schemaVersion"):
            if not board.get(field):
                problem(rel, f"no {field}")
        variables = get(board, "templating", "list") or []
        if not any(v.get("name") == "datasource" and v.get("type") == "datasource"
                   and v.get("query") == "prometheus" for v in variables):
            problem(rel, "no `datasource` variable of type datasource for Prometheus")
        ids = set()
        for panel in all_panels(board.get("panels")):
            if panel.get("type") == "row":
                continue
            count += 1
            where = f"{rel}: panel {panel.get('id')} {panel.get('title')!r}"
            if panel.get("id") in ids:
                problem(where, "duplicate panel id")
            ids.add(panel.get("id"))
            if not panel.get("title"):
                problem(where, "no title")
            if not panel.get("gridPos"):
                problem(where, "no gridPos")
            if not panel.get("datasource"):
                problem(where, "no datasource")
            elif not uses_variable(panel["datasource"]):
                problem(where, f"datasource {panel['datasource']} is not ${{datasource}}")
            targets = panel.get("targets") or []
            if not targets:
                problem(where, "no targets")
            refs = [t.get("refId") for t in targets]
            if len(set(refs)) != len(refs) or None in refs:
                problem(where, f"refIds missing or repeated: {refs}")
            for target in targets:
                tw = f"{where} target {target.get('refId')}"
                if "datasource" in target and not uses_variable(target["datasource"]):
                    problem(tw, f"datasource {target['datasource']} is not ${{datasource}}")
                expr = target.get("expr")
                if not expr:
                    problem(tw, "no expr")
                    continue
                check_metrics(tw, expr, used)
                exprs.append((tw, grafana_expr(expr)))
    return count


# --- external tools -------------------------------------------------------------------------

def run(command, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    return done.returncode, (done.stdout + done.stderr).strip()


def run_promtool(root, rule_files, config_files, test_files, exprs, notes, require):
    promtool = shutil.which("promtool")
    if not promtool:
        if require:
            problem("promtool", "not on PATH (Debian: apt-get install prometheus)")
        else:
            notes.append("promtool: not on PATH, skipped")
        return
    _, version = run([promtool, "--version"])
    version = version.splitlines()[0] if version else "promtool"
    checked = []
    for path in rule_files:
        rel = os.path.relpath(path, root)
        code, out = run([promtool, "check", "rules", path])
        if code != 0:
            problem(rel, f"promtool check rules failed: {one_line(out, 400)}")
        checked.append(f"rules {rel}")
    for path in config_files:
        rel = os.path.relpath(path, root)
        code, out = run([promtool, "check", "config", path])
        missing = re.findall(r"field (\w+_sd_configs) not found", out)
        if code != 0 and missing:
            # Debian's promtool is built without some service discoveries (Kubernetes among
            # them): check the rest of the configuration, and say so.
            code, out, dropped = check_config_without(promtool, path, set(missing))
            notes.append(f"promtool: this build does not know {', '.join(sorted(set(missing)))}; "
                         f"checked {rel} without the job(s) {', '.join(dropped)}")
        if code != 0:
            problem(rel, f"promtool check config failed: {one_line(out, 400)}")
        checked.append(f"config {rel}")
    for path in test_files:
        rel = os.path.relpath(path, root)
        # promtool resolves the tests' rule_files from the working directory.
        done = subprocess.run([promtool, "test", "rules", os.path.basename(path)],
                              capture_output=True, text=True, cwd=os.path.dirname(path))
        if done.returncode != 0:
            out = (done.stdout + done.stderr).strip()
            problem(rel, f"promtool test rules failed: {one_line(out, 1500)}")
        checked.append(f"tests {rel}")
    if exprs:
        # Every expression (alerts and dashboard) as a recording rule: promtool parses them all.
        rules = [{"record": f"check_deploy:expr_{i}", "expr": expr}
                 for i, (_, expr) in enumerate(exprs)]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "exprs.yml")
            with open(path, "w", encoding="utf-8") as f:
                yaml.safe_dump({"groups": [{"name": "check_deploy", "rules": rules}]}, f)
            code, out = run([promtool, "check", "rules", path])
        if code != 0:
            bad = sorted({int(n) for n in re.findall(r"check_deploy:expr_(\d+)", out)})
            for i in bad:
                problem(exprs[i][0], f"PromQL does not parse: {one_line(exprs[i][1])!r}")
            if not bad:
                problem("expressions", f"promtool could not parse them: {one_line(out, 400)}")
        checked.append(f"{len(exprs)} expressions")
    notes.append(f"promtool ({version}): checked {'; '.join(checked)}")


def check_config_without(promtool, path, fields):
    with open(path, encoding="utf-8") as f:
        config = yaml.safe_load(f)
    jobs = config.get("scrape_configs") or []
    dropped = [j.get("job_name") for j in jobs if fields & set(j)]
    config["scrape_configs"] = [j for j in jobs if not fields & set(j)]
    with tempfile.TemporaryDirectory() as tmp:
        for rule_file in config.get("rule_files") or []:
            for found in glob.glob(os.path.join(os.path.dirname(path), rule_file)):
                target = os.path.join(tmp, os.path.relpath(found, os.path.dirname(path)))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy(found, target)
        copy = os.path.join(tmp, os.path.basename(path))
        with open(copy, "w", encoding="utf-8") as f:
            yaml.safe_dump(config, f)
        code, out = run([promtool, "check", "config", copy])
        out = out.replace(tmp + os.sep, "")
    return code, out, dropped


def kubernetes_validate_command():
    """How to run kubernetes-validate (PyPI): its command on PATH, else this Python's module."""
    found = shutil.which("kubernetes-validate")
    if found:
        return [found]
    if importlib.util.find_spec("kubernetes_validate") is not None:
        return [sys.executable, "-m", "kubernetes_validate"]
    return None


def run_schema_validators(root, files, notes, require):
    """Validate the manifests against the Kubernetes API schemas with what is installed."""
    ran = False
    rel_files = [os.path.relpath(path, root) for path in files]
    command = kubernetes_validate_command()
    if command:
        ran = True
        _, version = run([*command, "--version"])
        # --strict: a field the schema does not know (a typo) is an error, not ignored.
        code, out = run([*command, "--strict", "--quiet", *rel_files], cwd=root)
        if code != 0:
            for line in out.splitlines() or ["(no output)"]:
                problem("deploy/kubernetes", f"kubernetes-validate: {one_line(line, 400)}")
        else:
            notes.append(f"kubernetes-validate {version.strip()}: {len(files)} file(s) valid "
                         f"(strict)")
    else:
        notes.append("kubernetes-validate: not installed, skipped")
    kubeconform = shutil.which("kubeconform")
    if kubeconform:
        ran = True
        code, out = run([kubeconform, "-strict", "-summary", *rel_files], cwd=root)
        if code != 0:
            problem("deploy/kubernetes", f"kubeconform failed: {one_line(out, 400)}")
        else:
            notes.append(f"kubeconform: {one_line(out.splitlines()[-1] if out else 'ok', 200)}")
    else:
        notes.append("kubeconform: not on PATH, skipped")
    if require and not ran:
        problem("deploy/kubernetes", "no schema validator: pip install kubernetes-validate "
                                     "(or put kubeconform on PATH)")


def check_against_metrics(path, used):
    """Every metric the alerts and dashboard use appears in a /metrics text."""
    exported = set()
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                exported.add(re.split(r"[{\s]", line.strip(), maxsplit=1)[0])
    except OSError as e:
        problem(path, f"cannot read: {e}")
        return
    for name in sorted(used - SYNTHETIC_METRICS - exported):
        problem(path, f"metric {name!r} is used by the alerts or the dashboard but not exported")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(here),
                        help="the tree whose deploy/ to check (default: this repository)")
    parser.add_argument("--metrics", metavar="FILE",
                        help="a replica's /metrics text: every metric used must appear in it")
    parser.add_argument("--require-tools", action="store_true",
                        help="fail when promtool or a Kubernetes schema validator is missing")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    deploy = os.path.join(root, "deploy")
    if not os.path.isdir(deploy):
        print(f"check-deploy: {deploy} is not a directory")
        return 2

    def files(pattern):
        return sorted(glob.glob(os.path.join(deploy, pattern)))

    manifests = files("kubernetes/*.yaml") + files("kubernetes/*.yml")
    prometheus = files("prometheus/*.yml") + files("prometheus/*.yaml")
    dashboards = files("grafana/*.json")
    for kind, found in (("Kubernetes manifests (deploy/kubernetes/*.yaml)", manifests),
                        ("Prometheus files (deploy/prometheus/*.yml)", prometheus),
                        ("Grafana dashboards (deploy/grafana/*.json)", dashboards)):
        if not found:
            problem("deploy", f"no {kind}")

    used, exprs, notes = set(), [], []
    objects = check_kubernetes(root, manifests)
    alerts = check_prometheus(root, prometheus, used, exprs)
    panels = check_grafana(root, dashboards, used, exprs)
    if args.metrics:
        check_against_metrics(args.metrics, used)

    def has(path, key):
        """True when a document of the YAML file at path has key (no problem if unreadable)."""
        try:
            with open(path, encoding="utf-8") as f:
                return any(isinstance(d, dict) and key in d for d in yaml.safe_load_all(f))
        except (OSError, yaml.YAMLError):
            return False

    run_promtool(root, [p for p in prometheus if has(p, "groups")],
                 [p for p in prometheus if has(p, "scrape_configs")],
                 [p for p in prometheus if has(p, "tests")], exprs, notes, args.require_tools)
    if manifests:
        run_schema_validators(root, manifests, notes, args.require_tools)

    for note in notes:
        print(note)
    for line in problems:
        print(line)
    summary = (f"deploy: {objects} Kubernetes objects, {alerts} alert rules, "
               f"{panels} dashboard panels")
    if problems:
        print(f"{summary}: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
        return 1
    print(f"{summary}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
