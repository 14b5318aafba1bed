package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Kueue (tests/controllers/bin/kueue, its upstream main with one line changed, see
// tests/controllers/README.md) runs beside the apiserver when --kueue names its binary. Its
// webhook server gets this cluster's serving certificate (SAN 127.0.0.1) and a loopback port,
// and its webhooks for the kinds it serves are registered by URL (webhooks.go), so a Job
// labelled with a queue is suspended on the way in, as in a real install. Everything else is
// off: metrics, probes, leader election, internal certificate management, the visibility
// server.
const kueueNamespace = "kueue-system"

// The job integrations Kueue's config enables. Only their webhooks are registered: Kueue does
// not serve the others' paths, and a registered one would refuse every object of its kind.
var kueueFrameworks = []string{"batch/job"}

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
  frameworks: ["%s"]
`, kueueNamespace, webhookPort, certDir, strings.Join(kueueFrameworks, `", "`))
}

// kueueServes says whether Kueue serves the webhooks of group's resource: its own kinds, and
// those of the enabled integrations (a framework group/kind, e.g. batch/job, is the rule's
// group and the kind's plural).
func kueueServes(group, resource string) bool {
	if group == "kueue.x-k8s.io" {
		return true
	}
	for _, f := range kueueFrameworks {
		if g, kind, _ := strings.Cut(f, "/"); group == g && resource == kind+"s" {
			return true
		}
	}
	return false
}

// kueueProbe dry-runs a Job labelled with a queue and not suspended: once Kueue's job
// webhook is in effect it comes back suspended.
func kueueProbe(ctx context.Context, client kubernetes.Interface, _ *rest.Config) error {
	suspend := false
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "testcluster-probe", Labels: map[string]string{"kueue.x-k8s.io/queue-name": "probe"}},
		Spec: batchv1.JobSpec{
			Suspend: &suspend,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "probe", Image: "registry.k8s.io/pause:3.10"}},
			}},
		},
	}
	got, err := client.BatchV1().Jobs(metav1.NamespaceDefault).Create(ctx, job, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		return err
	}
	if got.Spec.Suspend == nil || !*got.Spec.Suspend {
		return errors.New("a Job labelled with a queue was not suspended")
	}
	return nil
}

// launch is how to start one operator's controller, and its webhooks.
type launch struct {
	args, env []string
	webhooks  operatorWebhooks
}

// prepareKueue writes Kueue's config and certificates into DIR/kueue and creates its
// namespace; webhooks are its manifests (--kueue-webhooks).
func prepareKueue(ctx context.Context, cfg *rest.Config, dir, kubeconfig string, servingCert, servingKey []byte,
	webhooks *webhookSet) (*launch, error) {
	kdir := filepath.Join(dir, "kueue")
	certDir := filepath.Join(kdir, "certs")
	if err := writeCertDir(certDir, servingCert, servingKey); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	config := filepath.Join(kdir, "config.yaml")
	if err := writeFile(config, []byte(kueueConfig(port, certDir)), 0o644); err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: kueueNamespace}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	return &launch{
		args: []string{"--config=" + config, "--zap-log-level=2"},
		// With internal certificate management off, Kueue's main reads a metrics certificate
		// even with metrics off; tests/controllers/build.sh makes its folder this variable
		// instead of the fixed /etc/kueue/metrics/certs. Any pair will do.
		env:      []string{"KUBECONFIG=" + kubeconfig, "KUEUE_WEBHOOK_PORT=" + strconv.Itoa(port), "KUEUE_METRICS_CERT_DIR=" + certDir},
		webhooks: operatorWebhooks{set: webhooks, port: port, serves: kueueServes, probe: kueueProbe},
	}, nil
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
