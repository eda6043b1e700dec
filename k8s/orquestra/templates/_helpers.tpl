{{/*
Names, labels and small shared pieces. The per-service objects themselves come from
"orquestra.workload" in _workload.tpl, called once by each <service>.yaml.
*/}}

{{- define "orquestra.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* <release>-orquestra, or just <release> when the release name already contains the chart name. */}}
{{- define "orquestra.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "orquestra.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Name of one service's objects: <fullname>-<service>. Call with (dict "root" $ "name" "payments"). */}}
{{- define "orquestra.componentName" -}}
{{- printf "%s-%s" (include "orquestra.fullname" .root | trunc 50 | trimSuffix "-") .name }}
{{- end }}

{{- define "orquestra.labels" -}}
helm.sh/chart: {{ include "orquestra.chart" . }}
app.kubernetes.io/name: {{ include "orquestra.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: orquestra
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels that select one service's pods. Call with (dict "root" $ "name" "payments"). */}}
{{- define "orquestra.selectorLabels" -}}
app.kubernetes.io/name: {{ include "orquestra.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{- define "orquestra.componentLabels" -}}
{{ include "orquestra.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{- define "orquestra.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "orquestra.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding MONGO_URL, AMQP_URL and CREDENTIALS_ENCRYPTION_KEYS. */}}
{{- define "orquestra.secretName" -}}
{{- default (include "orquestra.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/* <registry>/<repository>@<digest> or :<tag>. Call with (dict "root" $ "image" .Values.<svc>.image). */}}
{{- define "orquestra.image" -}}
{{- $root := .root }}
{{- $repository := required "every service needs image.repository" .image.repository }}
{{- with $root.Values.image.registry }}
{{- $repository = printf "%s/%s" (trimSuffix "/" .) $repository }}
{{- end }}
{{- if .image.digest }}
{{- printf "%s@%s" $repository .image.digest }}
{{- else }}
{{- printf "%s:%s" $repository (toString (.image.tag | default $root.Values.image.tag | default $root.Chart.AppVersion)) }}
{{- end }}
{{- end }}

{{/* Name of a gRPC service's headless Service (at most 63 characters). Call with (dict "root" $ "name" "payments"). */}}
{{- define "orquestra.headlessName" -}}
{{- printf "%s-headless" (include "orquestra.componentName" . | trunc 54 | trimSuffix "-") }}
{{- end }}

{{/*
Client address of a service's gRPC API: dns:/// over its headless Service at the pods' gRPC port,
so clients balance round_robin over every ready pod. Call with (dict "root" $ "name" "payments").
*/}}
{{- define "orquestra.grpcAddr" -}}
{{- $values := index .root.Values .name }}
{{- printf "dns:///%s.%s.svc.%s:%d" (include "orquestra.headlessName" .) .root.Release.Namespace .root.Values.clusterDomain (int $values.grpcPort) }}
{{- end }}

{{- define "orquestra.payBaseUrl" -}}
{{- .Values.payBaseUrl | default (printf "%s/pay" (trimSuffix "/" .Values.publicBaseUrl)) }}
{{- end }}

{{- define "orquestra.webhookBaseUrl" -}}
{{- .Values.webhookBaseUrl | default .Values.publicBaseUrl }}
{{- end }}

{{/* Rendered Secret (empty with existingSecret): its checksum rolls the pods when it changes. */}}
{{- define "orquestra.secretChecksum" -}}
{{- if .Values.secrets.existingSecret }}
{{- printf "existing:%s" .Values.secrets.existingSecret | sha256sum }}
{{- else }}
{{- include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- end }}
{{- end }}

{{/* A NetworkPolicy peer list for the pods of the given services of this release. */}}
{{- define "orquestra.peers" -}}
{{- $root := .root }}
{{- range .names }}
- podSelector:
    matchLabels:
      {{- include "orquestra.selectorLabels" (dict "root" $root "name" .) | nindent 6 }}
{{- end }}
{{- end }}
