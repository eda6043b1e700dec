{{/*
Every object of one service: Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget,
NetworkPolicy and (optionally) ServiceMonitor. Each <service>.yaml calls it with
  (dict "root" $ "svc" <spec>)
where <spec> describes what differs between services:
  name          service name (values block, component label, image)
  protocol      "grpc" (native gRPC probes on grpc.health.v1) or "http" (the gateway)
  port          container port of the API
  callers       services of this release allowed to open that port (NetworkPolicy ingress)
  callees       services this one calls (NetworkPolicy egress)
  data          true: gets MONGO_URL / AMQP_URL / DB_PREFIX / EVENTS_EXCHANGE
  bus           true (without data): only the broker, for broadcast signals (EVENTS_EXCHANGE, RabbitMQ egress)
  providerApis  true: may reach the payment providers' HTTPS APIs
  adToolApis    true: may reach the ad tools' HTTPS APIs (tracking)
  env           plain variables this service needs (NAME: value)
  secretEnv     list of (dict "name" VAR "key" <values key under secrets.keys>)
  volumes / volumeMounts / checksums   optional extras (the providers' CA bundle)
*/}}
{{- define "orquestra.workload" -}}
{{- $root := .root }}
{{- $svc := .svc }}
{{- $v := index $root.Values $svc.name }}
{{- if $v.enabled }}
{{- $name := include "orquestra.componentName" (dict "root" $root "name" $svc.name) }}
{{- $selector := include "orquestra.selectorLabels" (dict "root" $root "name" $svc.name) }}
{{- $labels := include "orquestra.componentLabels" (dict "root" $root "name" $svc.name) }}
{{- /* Every service, the gateway included, serves /metrics on a plain-HTTP port of its own (METRICS_PORT). */}}
{{- $metricsOn := $root.Values.metrics.enabled }}
{{- $metricsPort := int $root.Values.metrics.port }}
{{- $serviceType := $v.service.type | default "ClusterIP" }}
{{- if and $metricsOn (eq $metricsPort (int $svc.port)) }}{{ fail (printf "metrics.port %d is %s's API port: /metrics needs a port of its own" $metricsPort $svc.name) }}{{ end }}

{{- /* Plain environment: chart settings, then the service's own, then OTEL_*, then values env (wins). */}}
{{- $env := dict "NODE_ENV" $root.Values.common.nodeEnv "LOG_LEVEL" $root.Values.common.logLevel "SHUTDOWN_GRACE_MS" (toString $root.Values.common.shutdownGraceMs) }}
{{- if $svc.data }}
{{- $_ := set $env "DB_PREFIX" $root.Values.common.dbPrefix }}
{{- end }}
{{- if or $svc.data $svc.bus }}
{{- $_ := set $env "EVENTS_EXCHANGE" $root.Values.common.eventsExchange }}
{{- end }}
{{- /* 0 turns the metrics listener off (each service's default would open 9464 unannounced). */}}
{{- $_ := set $env "METRICS_PORT" (ternary (toString $metricsPort) "0" $metricsOn) }}
{{- if eq $svc.protocol "grpc" }}
{{- $_ := set $env "GRPC_MAX_CONNECTION_AGE_MS" (toString (int $root.Values.common.grpc.maxConnectionAgeMs)) }}
{{- $_ := set $env "GRPC_MAX_CONNECTION_AGE_GRACE_MS" (toString (int $root.Values.common.grpc.maxConnectionAgeGraceMs)) }}
{{- end }}
{{- range $key, $value := $svc.env }}{{ $_ := set $env $key (toString $value) }}{{ end }}
{{- $_ := set $env "OTEL_SERVICE_NAME" $svc.name }}
{{- range $key, $value := $root.Values.otel.env }}
{{- if not (hasPrefix "OTEL_" $key) }}{{ fail (printf "otel.env.%s: only OTEL_* variables belong in otel.env (use <service>.env for others)" $key) }}{{ end }}
{{- $_ := set $env $key (toString $value) }}
{{- end }}
{{- range $key, $value := $v.env }}{{ $_ := set $env $key (toString $value) }}{{ end }}
{{- $resource := list "service.namespace=orquestra" (printf "service.version=%s" ($v.image.tag | default $root.Values.image.tag | default $root.Chart.AppVersion)) "k8s.namespace.name=$(POD_NAMESPACE)" "k8s.pod.name=$(POD_NAME)" "k8s.node.name=$(NODE_NAME)" (printf "k8s.deployment.name=%s" $name) }}
{{- range $key, $value := $root.Values.otel.resourceAttributes }}{{ $resource = append $resource (printf "%s=%s" $key (toString $value)) }}{{ end }}

{{- /* Probes: native gRPC (grpc.health.v1, SERVING only after the database, broker and handlers are up) or HTTP. */}}
{{- $probes := dict }}
{{- if eq $svc.protocol "grpc" }}
{{- $check := dict "grpc" (dict "port" (int $svc.port)) }}
{{- $_ := set $probes "startup" (merge (dict "periodSeconds" 2 "timeoutSeconds" 2 "failureThreshold" 60) (deepCopy $check)) }}
{{- $_ := set $probes "liveness" (merge (dict "periodSeconds" 10 "timeoutSeconds" 2 "failureThreshold" 3) (deepCopy $check)) }}
{{- $_ := set $probes "readiness" (merge (dict "periodSeconds" 5 "timeoutSeconds" 2 "failureThreshold" 2) (deepCopy $check)) }}
{{- else }}
{{- $_ := set $probes "startup" (dict "httpGet" (dict "path" "/healthz" "port" "http") "periodSeconds" 2 "timeoutSeconds" 2 "failureThreshold" 30) }}
{{- $_ := set $probes "liveness" (dict "httpGet" (dict "path" "/healthz" "port" "http") "periodSeconds" 10 "timeoutSeconds" 2 "failureThreshold" 3) }}
{{- $_ := set $probes "readiness" (dict "httpGet" (dict "path" "/readyz" "port" "http") "periodSeconds" 5 "timeoutSeconds" 3 "failureThreshold" 2) }}
{{- end }}
{{- range $kind, $override := ($v.probes | default dict) }}
{{- if not (has $kind (list "startup" "liveness" "readiness")) }}{{ fail (printf "%s.probes.%s: only startup, liveness and readiness can be overridden" $svc.name $kind) }}{{ end }}
{{- $_ := set $probes $kind (mergeOverwrite (index $probes $kind) $override) }}
{{- end }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  {{- if not $v.autoscaling.enabled }}
  replicas: {{ $v.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
  template:
    metadata:
      labels:
        {{- $labels | nindent 8 }}
        {{- with $v.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        checksum/secret: {{ include "orquestra.secretChecksum" $root }}
        {{- range $key, $value := ((index $svc "checksums") | default dict) }}
        checksum/{{ $key }}: {{ $value }}
        {{- end }}
        {{- if and $metricsOn $root.Values.metrics.podAnnotations }}
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ $metricsPort | quote }}
        prometheus.io/path: "/metrics"
        {{- end }}
        {{- with $v.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "orquestra.serviceAccountName" $root }}
      automountServiceAccountToken: false
      # No <SERVICE>_PORT_… variables: addresses come from the chart, explicitly.
      enableServiceLinks: false
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $root.Values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
      containers:
        - name: {{ $svc.name }}
          image: {{ include "orquestra.image" (dict "root" $root "image" $v.image) | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          {{- with (index $v "command") }}
          command:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- with (index $v "args") }}
          args:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          ports:
            - name: {{ $svc.protocol }}
              containerPort: {{ $svc.port }}
              protocol: TCP
            {{- if $metricsOn }}
            - name: metrics
              containerPort: {{ $metricsPort }}
              protocol: TCP
            {{- end }}
          env:
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            - name: NODE_NAME
              valueFrom:
                fieldRef:
                  fieldPath: spec.nodeName
            {{- range $key := keys $env | sortAlpha }}
            - name: {{ $key }}
              value: {{ index $env $key | quote }}
            {{- end }}
            {{- if not (hasKey $env "OTEL_RESOURCE_ATTRIBUTES") }}
            - name: OTEL_RESOURCE_ATTRIBUTES
              value: {{ join "," $resource | quote }}
            {{- end }}
            {{- range $svc.secretEnv }}
            {{- if not (hasKey $env .name) }}
            - name: {{ .name }}
              valueFrom:
                secretKeyRef:
                  name: {{ include "orquestra.secretName" $root }}
                  key: {{ index $root.Values.secrets.keys .key }}
            {{- end }}
            {{- end }}
            {{- with $v.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          {{- with $v.extraEnvFrom }}
          envFrom:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          startupProbe:
            {{- toYaml $probes.startup | nindent 12 }}
          livenessProbe:
            {{- toYaml $probes.liveness | nindent 12 }}
          readinessProbe:
            {{- toYaml $probes.readiness | nindent 12 }}
          {{- if (index $v "preStopSleepSeconds") }}
          lifecycle:
            preStop:
              # Keeps serving while the endpoint removal reaches every node and the ingress, then
              # SIGTERM starts the graceful shutdown. node is the one binary every image has.
              exec:
                command: ["node", "-e", "setTimeout(() => {}, {{ mul (int (index $v "preStopSleepSeconds")) 1000 }})"]
          {{- end }}
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          securityContext:
            {{- toYaml $root.Values.containerSecurityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- with (index $svc "volumeMounts") }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            {{- with $root.Values.tmpVolume.medium }}
            medium: {{ . }}
            {{- end }}
            sizeLimit: {{ $root.Values.tmpVolume.sizeLimit }}
        {{- with (index $svc "volumes") }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with ($v.nodeSelector | default $root.Values.nodeSelector) }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with ($v.tolerations | default $root.Values.tolerations) }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with ($v.affinity | default $root.Values.affinity) }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      topologySpreadConstraints:
        {{- with ($v.topologySpreadConstraints | default $root.Values.topologySpreadConstraints) }}
        {{- toYaml . | nindent 8 }}
        {{- else }}
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- $selector | nindent 14 }}
          matchLabelKeys:
            - pod-template-hash
        {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
  {{- with $v.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ $serviceType }}
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: {{ $svc.protocol }}
      port: {{ $v.service.port }}
      targetPort: {{ $svc.protocol }}
      protocol: TCP
      appProtocol: {{ ternary "kubernetes.io/h2c" "http" (eq $svc.protocol "grpc") }}
    {{- if and $metricsOn (eq $serviceType "ClusterIP") }}
    - name: metrics
      port: {{ $metricsPort }}
      targetPort: metrics
      protocol: TCP
      appProtocol: http
    {{- end }}
{{- if eq $svc.protocol "grpc" }}
---
# {{ $name }}'s pods by their own addresses: clients resolve this name (dns:///…) and balance
# round_robin over every ready pod, where the ClusterIP Service above would pin each client's one
# HTTP/2 connection to one pod. Servers close connections at GRPC_MAX_CONNECTION_AGE_MS, so
# clients resolve again and spread over pods added since (docs/deployment.md).
apiVersion: v1
kind: Service
metadata:
  name: {{ include "orquestra.headlessName" (dict "root" $root "name" $svc.name) }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  clusterIP: None
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: grpc
      port: {{ $svc.port }}
      targetPort: grpc
      protocol: TCP
      appProtocol: kubernetes.io/h2c
{{- end }}
{{- if and $metricsOn (ne $serviceType "ClusterIP") }}
---
# {{ $name }} is published outside the cluster ({{ $serviceType }}); /metrics never is, so its
# port gets this ClusterIP Service of its own (the ServiceMonitor finds it by the port name).
apiVersion: v1
kind: Service
metadata:
  # A Service name is at most 63 characters.
  name: {{ $name | trunc 55 | trimSuffix "-" }}-metrics
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: metrics
      port: {{ $metricsPort }}
      targetPort: metrics
      protocol: TCP
      appProtocol: http
{{- end }}
{{- if $v.autoscaling.enabled }}
{{- if not (or $v.autoscaling.targetCPUUtilizationPercentage $v.autoscaling.targetMemoryUtilizationPercentage) }}
{{- fail (printf "%s.autoscaling: set targetCPUUtilizationPercentage and/or targetMemoryUtilizationPercentage" $svc.name) }}
{{- end }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $name }}
  minReplicas: {{ $v.autoscaling.minReplicas }}
  maxReplicas: {{ $v.autoscaling.maxReplicas }}
  metrics:
    {{- with $v.autoscaling.targetCPUUtilizationPercentage }}
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
    {{- with $v.autoscaling.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
  {{- with $v.autoscaling.behavior }}
  behavior:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- if $v.podDisruptionBudget.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  {{- if not (kindIs "invalid" $v.podDisruptionBudget.minAvailable) }}
  minAvailable: {{ $v.podDisruptionBudget.minAvailable }}
  {{- else }}
  maxUnavailable: {{ $v.podDisruptionBudget.maxUnavailable | default 1 }}
  {{- end }}
  # A pod that never became ready may always be evicted (it serves nothing).
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
{{- end }}
{{- if $root.Values.networkPolicy.enabled }}
{{- $np := $root.Values.networkPolicy }}
---
# Who may call {{ $svc.name }}: {{ if $svc.callers }}{{ join ", " $svc.callers }} of this release{{ else }}see networkPolicy.gatewayFrom{{ end }}.
# Where {{ $svc.name }} may connect: DNS{{ if $svc.callees }}, {{ join ", " $svc.callees }}{{ end }}{{ if $svc.data }}, MongoDB, RabbitMQ{{ else if $svc.bus }}, RabbitMQ{{ end }}{{ if $svc.providerApis }}, provider APIs{{ end }}{{ if $svc.adToolApis }}, ad tool APIs{{ end }}, OTLP{{ if $np.egress.extra }}, networkPolicy.egress.extra{{ end }}.
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- $selector | nindent 6 }}
  policyTypes:
    - Ingress
    {{- if $np.egress.enabled }}
    - Egress
    {{- end }}
  ingress:
    - ports:
        - port: {{ $svc.protocol }}
          protocol: TCP
      {{- if eq $svc.protocol "http" }}
      {{- with $np.gatewayFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- else }}
      from:
        {{- include "orquestra.peers" (dict "root" $root "names" $svc.callers) | trim | nindent 8 }}
      {{- end }}
    {{- if $metricsOn }}
    - ports:
        - port: metrics
          protocol: TCP
      {{- with $np.metricsFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
  {{- if $np.egress.enabled }}
  egress:
    - ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
      {{- with $np.egress.dnsTo }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- range $callee := $svc.callees }}
    - ports:
        - port: {{ (index $root.Values $callee).grpcPort }}
          protocol: TCP
      to:
        {{- include "orquestra.peers" (dict "root" $root "names" (list $callee)) | trim | nindent 8 }}
    {{- end }}
    {{- $targets := list $np.egress.otlp }}
    {{- if $svc.data }}{{ $targets = concat (list $np.egress.mongo $np.egress.amqp) $targets }}{{ else if $svc.bus }}{{ $targets = concat (list $np.egress.amqp) $targets }}{{ end }}
    {{- if $svc.providerApis }}{{ $targets = append $targets $np.egress.providerApis }}{{ end }}
    {{- if $svc.adToolApis }}{{ $targets = append $targets $np.egress.adToolApis }}{{ end }}
    {{- range $targets }}
    - ports:
        {{- range .ports }}
        - port: {{ . }}
          protocol: TCP
        {{- end }}
      {{- with .to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- with $np.egress.extra }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- if and $metricsOn $root.Values.metrics.serviceMonitor.enabled ($root.Capabilities.APIVersions.Has "monitoring.coreos.com/v1") }}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ $name }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
    {{- with $root.Values.metrics.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
  endpoints:
    - port: metrics
      path: /metrics
      interval: {{ $root.Values.metrics.serviceMonitor.interval }}
      scrapeTimeout: {{ $root.Values.metrics.serviceMonitor.scrapeTimeout }}
      # The service's name on every series, as the Grafana dashboards select it (and as the
      # docker-compose observability profile's Prometheus sets it).
      relabelings:
        - action: replace
          targetLabel: orquestra_service
          replacement: {{ $svc.name }}
{{- end }}
{{- end }}
{{- end }}
