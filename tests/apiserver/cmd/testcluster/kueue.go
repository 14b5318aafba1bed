package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Kueue (tests/controllers/bin/kueue, its unmodified upstream main) runs beside the
// apiserver when --kueue names its binary. It cannot run without a webhook server, so the
// server gets this cluster's serving certificate (SAN 127.0.0.1) and a loopback port; no
// webhook is registered with the apiserver, so the tests create jobs suspended, as Kueue's
// job webhook would leave them. Everything else is off: metrics, probes, leader election,
// internal certificate management, the visibility server.
const kueueNamespace = "kueue-system"

// With internal certificate management off, Kueue v0.19.2's main reads a metrics
// certificate from this fixed path and exits when it is missing, even with metrics off.
const kueueMetricsCertDir = "/etc/kueue/metrics/certs"

func kueueConfig(webhookPort int, certDir string) string {
	return fmt.Sprintf(`apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: %s
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
featureGates:
  VisibilityOnDemand: false
integrations:
  frameworks: ["batch/job"]
`, kueueNamespace, webhookPort, certDir)
}

// prepareKueue writes Kueue's config and certificates into DIR/kueue and creates its
// namespace; it returns the arguments and environment to start it with.
func prepareKueue(ctx context.Context, cfg *rest.Config, dir, kubeconfig string, servingCert, servingKey []byte) ([]string, []string, error) {
	kdir := filepath.Join(dir, "kueue")
	certDir := filepath.Join(kdir, "certs")
	if err := os.MkdirAll(certDir, 0o755); err != nil {
		return nil, nil, err
	}
	for _, d := range []string{certDir, kueueMetricsCertDir} {
		if d == kueueMetricsCertDir {
			if _, err := os.Stat(filepath.Join(d, "tls.crt")); err == nil {
				continue // left by an earlier run; any pair will do, metrics are off
			}
			if err := os.MkdirAll(d, 0o755); err != nil {
				return nil, nil, fmt.Errorf("kueue reads a metrics certificate from %s even with metrics off, and it cannot be written: %w", d, err)
			}
		}
		if err := writeFile(filepath.Join(d, "tls.crt"), servingCert, 0o644); err != nil {
			return nil, nil, err
		}
		if err := writeFile(filepath.Join(d, "tls.key"), servingKey, 0o600); err != nil {
			return nil, nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	config := filepath.Join(kdir, "config.yaml")
	if err := writeFile(config, []byte(kueueConfig(port, certDir)), 0o644); err != nil {
		return nil, nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: kueueNamespace}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, nil, err
	}
	args := []string{"--config=" + config, "--zap-log-level=2"}
	env := []string{"KUBECONFIG=" + kubeconfig, "KUEUE_WEBHOOK_PORT=" + strconv.Itoa(port)}
	return args, env, nil
}
