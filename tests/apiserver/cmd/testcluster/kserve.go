package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// KServe's controller manager (tests/controllers/bin/kserve, its unmodified upstream main) runs
// beside the apiserver when --kserve names its binary, in Standard (raw Deployment) mode, which
// needs neither Knative nor Istio. It reads the `inferenceservice-config` ConfigMap of its
// namespace at start and on every reconcile: the harness creates it from the module's own
// config/configmap/inferenceservice.yaml (--kserve-config) with two settings changed, the
// default deployment mode (Standard) and ingress creation (off: no Ingress controller runs, and
// the URL KServe writes is the same either way). Its webhooks (InferenceService defaulting and
// validation, runtime validation, the pod mutator that adds the storage initializer) are
// registered by URL as Kueue's are; metrics, probes and leader election are off.
//
// Its main has no flag for the webhook server's certificate folder or address: it listens on
// --webhook-port on every interface, and controller-runtime reads the pair from
// $TMPDIR/k8s-webhook-server/serving-certs, so TMPDIR points into DIR/kserve.
const kserveNamespace = "kserve"

// The settings the harness changes in the upstream ConfigMap, key by key of its JSON blocks.
var kserveSettings = map[string]map[string]any{
	"deploy":  {"defaultDeploymentMode": "Standard"},
	"ingress": {"disableIngressCreation": true},
}

// kserveConfigMap reads the upstream ConfigMap from dir and applies kserveSettings; a block or a
// setting that is not there fails (the file changed beyond what this harness knows).
func kserveConfigMap(dir string) (*corev1.ConfigMap, error) {
	path := filepath.Join(dir, "inferenceservice.yaml")
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	cm := &corev1.ConfigMap{}
	if err := utilyaml.NewYAMLOrJSONDecoder(fh, 4096).Decode(cm); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if cm.Kind != "ConfigMap" || cm.Name != "inferenceservice-config" {
		return nil, fmt.Errorf("%s: not the inferenceservice-config ConfigMap", path)
	}
	for key, settings := range kserveSettings {
		block := map[string]any{}
		if err := json.Unmarshal([]byte(cm.Data[key]), &block); err != nil {
			return nil, fmt.Errorf("%s: data.%s: %w", path, key, err)
		}
		for name, value := range settings {
			if _, found := block[name]; !found {
				return nil, fmt.Errorf("%s: data.%s has no %s", path, key, name)
			}
			block[name] = value
		}
		text, err := json.MarshalIndent(block, "", "  ")
		if err != nil {
			return nil, err
		}
		cm.Data[key] = string(text)
	}
	cm.Namespace = kserveNamespace
	cm.ResourceVersion, cm.UID, cm.CreationTimestamp = "", "", metav1.Time{}
	return cm, nil
}

// kserveServes keeps every webhook of KServe's manifests: its main serves them all (its own
// kinds, and pods, which the mutator's objectSelector limits to an Inference Service's).
func kserveServes(group, resource string) bool {
	return group == "serving.kserve.io" || (group == "" && resource == "pods")
}

var inferenceServicesResource = schema.GroupVersionResource{Group: "serving.kserve.io", Version: "v1beta1", Resource: "inferenceservices"}

// kserveProbe dry-runs an Inference Service without a deployment mode: once KServe's defaulting
// webhook is in effect it comes back annotated with the configured default (Standard).
func kserveProbe(ctx context.Context, _ kubernetes.Interface, cfg *rest.Config) error {
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	isvc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "serving.kserve.io/v1beta1",
		"kind":       "InferenceService",
		"metadata":   map[string]any{"name": "testcluster-probe"},
		"spec": map[string]any{"predictor": map[string]any{"model": map[string]any{
			"modelFormat": map[string]any{"name": "sklearn"},
			"storageUri":  "gs://testcluster/probe",
		}}},
	}}
	got, err := client.Resource(inferenceServicesResource).Namespace(metav1.NamespaceDefault).Create(ctx, isvc,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		return err
	}
	mode, _, _ := unstructured.NestedString(got.Object, "metadata", "annotations", "serving.kserve.io/deploymentMode")
	if mode != "Standard" {
		return errors.New("an Inference Service came back without the default deployment mode")
	}
	return nil
}

// prepareKServe creates KServe's namespace and ConfigMap and writes its serving pair where
// controller-runtime looks for it; webhooks are its manifests (--kserve-webhooks).
func prepareKServe(ctx context.Context, cfg *rest.Config, dir, kubeconfig, configDir string, servingCert, servingKey []byte,
	webhooks *webhookSet) (*launch, error) {
	cm, err := kserveConfigMap(configDir)
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(dir, "kserve", "tmp")
	if err := writeCertDir(filepath.Join(tmp, "k8s-webhook-server", "serving-certs"), servingCert, servingKey); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: kserveNamespace}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	if _, err := client.CoreV1().ConfigMaps(kserveNamespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		if !apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("ConfigMap %s/%s: %w", kserveNamespace, cm.Name, err)
		}
		if _, err := client.CoreV1().ConfigMaps(kserveNamespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			return nil, fmt.Errorf("ConfigMap %s/%s: %w", kserveNamespace, cm.Name, err)
		}
	}
	return &launch{
		args: []string{"--webhook-port=" + strconv.Itoa(port), "--metrics-addr=0", "--health-probe-addr=0",
			"--leader-elect=false", "--zap-log-level=2"},
		env:      []string{"KUBECONFIG=" + kubeconfig, "POD_NAMESPACE=" + kserveNamespace, "TMPDIR=" + tmp},
		webhooks: operatorWebhooks{set: webhooks, port: port, serves: kserveServes, probe: kserveProbe},
	}, nil
}
