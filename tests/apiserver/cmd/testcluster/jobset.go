package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// JobSet (tests/controllers/bin/jobset, its unmodified upstream main) runs beside the
// apiserver when --jobset names its binary, arranged as Kueue is: its webhook server (it
// always starts) on a free 127.0.0.1 port with the cluster's serving certificate and no
// webhook registered, metrics, probes, leader election and internal certificates off.
func jobsetConfig(webhookPort int, certDir string) string {
	return fmt.Sprintf(`apiVersion: config.jobset.x-k8s.io/v1alpha1
kind: Configuration
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

// prepareJobSet writes JobSet's config and certificates into DIR/jobset; it returns the
// arguments and environment to start it with.
func prepareJobSet(dir, kubeconfig string, servingCert, servingKey []byte) ([]string, []string, error) {
	jdir := filepath.Join(dir, "jobset")
	certDir := filepath.Join(jdir, "certs")
	if err := os.MkdirAll(certDir, 0o755); err != nil {
		return nil, nil, err
	}
	if err := writeFile(filepath.Join(certDir, "tls.crt"), servingCert, 0o644); err != nil {
		return nil, nil, err
	}
	if err := writeFile(filepath.Join(certDir, "tls.key"), servingKey, 0o600); err != nil {
		return nil, nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	config := filepath.Join(jdir, "config.yaml")
	if err := writeFile(config, []byte(jobsetConfig(port, certDir)), 0o644); err != nil {
		return nil, nil, err
	}
	args := []string{"--config=" + config, "--metrics-bind-address=0", "--health-probe-bind-address=0", "--zap-log-level=2"}
	return args, []string{"KUBECONFIG=" + kubeconfig}, nil
}
