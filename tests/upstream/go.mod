// Pins the upstream Go modules whose data files the tests read: each operator's CRDs (the
// Prometheus Operator's, for the Helm chart's monitoring objects, and cert-manager's, for its example), and
// k8s.io/api's round-trip test data. No Go code builds from here; fetch.sh downloads the exact
// versions below (verified against go.sum) and copies the files the tests use.
module sextant.test/upstream

go 1.26.0

require (
	github.com/cert-manager/cert-manager v1.16.3
	github.com/NVIDIA/gpu-operator v0.0.0-20250917190837-d73a0086a6ba
	github.com/kserve/kserve v0.16.0
	github.com/kubeflow/trainer/v2 v2.0.0
	github.com/kubeflow/training-operator v1.8.1
	github.com/project-codeflare/appwrapper v1.1.2
	github.com/prometheus-operator/prometheus-operator v0.85.0
	github.com/ray-project/kuberay/ray-operator v1.6.2
	k8s.io/api v0.37.2
	sigs.k8s.io/jobset v0.12.0
	sigs.k8s.io/kueue v0.19.2
	sigs.k8s.io/lws v0.9.0
)
