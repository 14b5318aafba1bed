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

// Kueue (tests/controllers/bin/kueue, its upstream main with one line changed, see
// tests/controllers/README.md) runs beside the
// apiserver when --kueue names its binary. It cannot run without a webhook server, so the
// server gets this cluster's serving certificate (SAN 127.0.0.1) and a loopback port; no
// webhook is registered with the apiserver, so the tests create jobs suspended, as Kueue's
// job webhook would leave them. Everything else is off: metrics, probes, leader election,
// internal certificate management, the visibility server.
const kueueNamespace = "kueue-system"

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
	if err := writeCertDir(certDir, servingCert, servingKey); err != nil {
		return nil, nil, err
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
	// With internal certificate management off, Kueue's main reads a metrics certificate even
	// with metrics off; tests/controllers/build.sh makes its folder this variable instead of the
	// fixed /etc/kueue/metrics/certs. Any pair will do.
	env := []string{"KUBECONFIG=" + kubeconfig, "KUEUE_WEBHOOK_PORT=" + strconv.Itoa(port), "KUEUE_METRICS_CERT_DIR=" + certDir}
	return args, env, nil
}

// writeCertDir writes a controller's serving pair as tls.crt and tls.key into dir.
func writeCertDir(dir string, cert, key []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "tls.crt"), cert, 0o644); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "tls.key"), key, 0o600)
}
