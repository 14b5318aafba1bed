package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// JobSet (tests/controllers/bin/jobset, its unmodified upstream main) runs beside the
// apiserver when --jobset names its binary, arranged as Kueue is: its webhook server (it
// always starts) on a free 127.0.0.1 port with the cluster's serving certificate, its JobSet
// webhooks registered by URL (webhooks.go), so a JobSet gets its defaults on the way in;
// metrics, probes, leader election and internal certificates off. Its alpha RestartJob gate is
// on, so that the restart actions of single Jobs (RestartJob, RestartJobAndIgnoreMaxRestarts)
// are accepted and run as a cluster that turned it on runs them.
func jobsetConfig(webhookPort int, certDir string) string {
	return fmt.Sprintf(`apiVersion: config.jobset.x-k8s.io/v1alpha1
kind: Configuration
featureGates:
  RestartJob: true
health:
  healthProbeBindAddress: "0"
metrics:
  bindAddress: "0"
webhook:
  host: 127.0.0.1
  port: %d
  certDir: %s
leaderElection:
  leaderElect: false
internalCertManagement:
  enable: false
`, webhookPort, certDir)
}

// jobsetServes keeps JobSet's webhooks for JobSets. Its pod webhooks (exclusive placement)
// are left out: a real install limits them to a JobSet's pods with an objectSelector its
// kustomization adds, which the generated manifests lack, so here they would see every pod.
func jobsetServes(group, _ string) bool {
	return group == "jobset.x-k8s.io"
}

var jobsetsResource = schema.GroupVersionResource{Group: "jobset.x-k8s.io", Version: "v1alpha2", Resource: "jobsets"}

// jobsetProbe dry-runs a JobSet without defaults: once JobSet's defaulting webhook is in
// effect it comes back with a successPolicy.
func jobsetProbe(ctx context.Context, _ kubernetes.Interface, cfg *rest.Config) error {
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	podSpec := map[string]any{
		"restartPolicy": "Never",
		"containers":    []any{map[string]any{"name": "probe", "image": "registry.k8s.io/pause:3.10"}},
	}
	jobset := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "jobset.x-k8s.io/v1alpha2",
		"kind":       "JobSet",
		"metadata":   map[string]any{"name": "testcluster-probe"},
		"spec": map[string]any{"replicatedJobs": []any{map[string]any{
			"name":     "probe",
			"replicas": int64(1),
			"template": map[string]any{"spec": map[string]any{"template": map[string]any{"spec": podSpec}}},
		}}},
	}}
	got, err := client.Resource(jobsetsResource).Namespace(metav1.NamespaceDefault).Create(ctx, jobset,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		return err
	}
	if _, found, _ := unstructured.NestedMap(got.Object, "spec", "successPolicy"); !found {
		return errors.New("a JobSet came back without the defaults")
	}
	return nil
}

// prepareJobSet writes JobSet's config and certificates into DIR/jobset; webhooks are its
// manifests (--jobset-webhooks).
func prepareJobSet(dir, kubeconfig string, servingCert, servingKey []byte, webhooks *webhookSet) (*launch, error) {
	jdir := filepath.Join(dir, "jobset")
	certDir := filepath.Join(jdir, "certs")
	if err := writeCertDir(certDir, servingCert, servingKey); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	config := filepath.Join(jdir, "config.yaml")
	if err := writeFile(config, []byte(jobsetConfig(port, certDir)), 0o644); err != nil {
		return nil, err
	}
	return &launch{
		args:     []string{"--config=" + config, "--metrics-bind-address=0", "--health-probe-bind-address=0", "--zap-log-level=2"},
		env:      []string{"KUBECONFIG=" + kubeconfig},
		webhooks: operatorWebhooks{set: webhooks, port: port, serves: jobsetServes, probe: jobsetProbe},
	}, nil
}
