{{/* The name of the chart's namespaced objects and the prefix of its cluster-wide ones: the
release's name, so `helm install sextantd` gives deploy/'s names. */}}
{{- define "sextantd.fullname" -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sextantd.selector" -}}
app.kubernetes.io/name: sextantd
{{- end -}}

{{/* The daemon's flags: deploy/deployment.yaml's, then what the values add. */}}
{{- define "sextantd.args" -}}
- --in-cluster
- --auth={{ .Values.auth.mode }}
- --listen
- "0.0.0.0:8080"
- --probe-listen
- "0.0.0.0:8081"
- --settings-configmap-file
- /etc/sextantd/settings/problems.json
- --log-format
- {{ .Values.logFormat }}
{{- with .Values.auth.cacheSeconds }}
- --auth-cache-seconds={{ . }}
{{- end }}
{{- with .Values.auth.accessCacheSeconds }}
- --access-cache-seconds={{ . }}
{{- end }}
{{- with .Values.auth.metricsPermissionPath }}
- --metrics-permission-path={{ . }}
{{- end }}
{{- if .Values.tls.enabled }}
- --tls-cert=/etc/sextantd/tls/tls.crt
- --tls-key=/etc/sextantd/tls/tls.key
{{- end }}
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end -}}
