package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// The NVIDIA GPU Operator (tests/controllers/bin/gpu-operator, its upstream main with two
// folders of its image taken from the environment, see tests/controllers/README.md) runs beside
// the apiserver when --gpu-operator names its binary. It deploys its operands into
// OPERATOR_NAMESPACE from the manifests of --gpu-operator-assets (the module's assets/ and
// manifests/, as its image lays them out at /opt/gpu-operator), and reads the os-release of the
// node it runs on from DIR/gpu-operator/host-etc (its Deployment mounts the node's /etc at
// /host-etc): an Ubuntu 22.04 node's. It serves no webhook; metrics, probes and leader election
// are off.
const gpuOperatorNamespace = "gpu-operator"

const hostOSRelease = `PRETTY_NAME="Ubuntu 22.04.5 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.5 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
`

// prepareGPUOperator creates the operator's namespace and writes the host's os-release.
func prepareGPUOperator(ctx context.Context, cfg *rest.Config, dir, kubeconfig, assets string) (*launch, error) {
	if info, err := os.Stat(assets); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("--gpu-operator-assets %s is not a folder (tests/controllers/build.sh gpu-operator makes it): %v", assets, err)
	}
	hostEtc := filepath.Join(dir, "gpu-operator", "host-etc")
	if err := os.MkdirAll(hostEtc, 0o755); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(hostEtc, "os-release"), []byte(hostOSRelease), 0o644); err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: gpuOperatorNamespace}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	return &launch{
		args: []string{"--metrics-bind-address=0", "--health-probe-bind-address=0", "--leader-elect=false", "--zap-log-level=2"},
		env: []string{"KUBECONFIG=" + kubeconfig, "OPERATOR_NAMESPACE=" + gpuOperatorNamespace,
			"GPU_OPERATOR_ASSETS_DIR=" + assets, "GPU_OPERATOR_HOST_ETC=" + hostEtc},
	}, nil
}
