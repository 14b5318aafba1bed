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
{{- if eq .Values.tls.mode "self-signed" }}
- --tls=self-signed
- {{ printf "--tls-san=%s" (include "sextantd.tlsNames" .) | quote }}
{{- else if eq .Values.tls.mode "secret" }}
- --tls=files
- --tls-cert=/etc/sextantd/tls/tls.crt
- --tls-key=/etc/sextantd/tls/tls.key
{{- else if eq .Values.tls.mode "off" }}
- --tls=off
{{- else }}
{{- fail (printf "tls.mode is self-signed, secret or off, not %q" .Values.tls.mode) }}
{{- end }}
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
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end -}}


{{/* The names of the self-signed certificate: the Service's, tls.extraNames, then the Pod's IP
(expanded by the kubelet from the env POD_IP). */}}
{{- define "sextantd.tlsNames" -}}
{{- $service := include "sextantd.fullname" . -}}
{{- $names := list $service (printf "%s.%s" $service .Release.Namespace) (printf "%s.%s.svc" $service .Release.Namespace) (printf "%s.%s.svc.%s" $service .Release.Namespace .Values.clusterDomain) -}}
{{- join "," (concat $names .Values.tls.extraNames (list "$(POD_IP)")) -}}
{{- end -}}

{{/* The API port's name: https, or http with tls.mode off. */}}
{{- define "sextantd.portName" -}}
{{- if eq .Values.tls.mode "off" }}http{{ else }}https{{ end -}}
{{- end -}}
