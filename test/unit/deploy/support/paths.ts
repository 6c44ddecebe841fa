import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENV_BINDINGS } from '../../../../src/config/load.js';
import { REPO_ROOT } from '../../../helpers/run-cli.js';

export const DEPLOY = join(REPO_ROOT, 'deploy');
/** deploy/k8s: the base, the optional component and the overlays, side by side (an overlay inside its base is a cycle to kustomize). */
export const K8S_ROOT = join(DEPLOY, 'k8s');
/** The kustomize base. */
export const K8S_DIR = join(K8S_ROOT, 'base');
/** The optional kustomize component with the Prometheus Operator's kinds. */
export const OPERATOR_COMPONENT_DIR = join(K8S_ROOT, 'components', 'prometheus-operator');
export const PROMETHEUS_RULE_FILE = join(OPERATOR_COMPONENT_DIR, 'prometheusrule.yaml');
/** The overlay the operations guide shows: base + component + namespace, image, URLs and models. */
export const EXAMPLE_OVERLAY_DIR = join(K8S_ROOT, 'overlays', 'example');
/** Several replicas on PostgreSQL state. */
export const POSTGRES_OVERLAY_DIR = join(K8S_ROOT, 'overlays', 'postgres');
export const ALERTS_FILE = join(DEPLOY, 'prometheus', 'alerts.yaml');
export const DASHBOARD_FILE = join(DEPLOY, 'grafana', 'ragwatch.json');
export const DOCKERFILE = join(DEPLOY, 'Dockerfile');
export const COMPOSE_FILE = join(DEPLOY, 'compose.yaml');
export const SYSTEMD_UNIT = join(DEPLOY, 'systemd', 'ragwatch.service');

export const readText = (path: string) => readFileSync(path, 'utf8');
export const readYaml = <T = unknown>(path: string) => parse(readText(path)) as T;

/** Every environment variable ragwatch reads: the config overrides plus RAGWATCH_CONFIG. */
export const KNOWN_ENV = new Set(['RAGWATCH_CONFIG', ...ENV_BINDINGS.flatMap(([names]) => names)]);

export interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface RuleFile {
  groups: { name: string; rules: AlertRule[] }[];
}
