package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// An operator's admission webhooks, registered as a real install registers them (its own
// generated manifests, config/components/webhook/manifests.yaml of its Go module, handed over
// with --kueue-webhooks / --jobset-webhooks), except that each webhook is called by URL on the
// loopback port its controller serves on instead of through a Service, with the cluster's CA
// as caBundle, and that only the webhooks for kinds the controller serves are kept: a webhook
// whose path the controller does not serve answers 404, and with failurePolicy Fail every
// object of its kind would be refused.
type webhookSet struct {
	mutating   []*admissionv1.MutatingWebhookConfiguration
	validating []*admissionv1.ValidatingWebhookConfiguration
}

// webhookManagedBy labels every configuration this harness registers, so that a later run on
// the same --dir can remove what an earlier one left (its port is gone).
const webhookManagedBy = "app.kubernetes.io/managed-by"

// readWebhooks reads every MutatingWebhookConfiguration and ValidatingWebhookConfiguration of
// the *.yaml files in dir; any other kind is an error.
func readWebhooks(dir string) (*webhookSet, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("webhooks %s: no *.yaml files", dir)
	}
	set := &webhookSet{}
	for _, f := range files {
		if err := set.readFile(f); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return set, nil
}

func (s *webhookSet) readFile(path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(fh, 4096)
	for i := 0; ; i++ {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("document %d: %w", i, err)
		}
		if len(doc) == 0 {
			continue
		}
		if doc["apiVersion"] != "admissionregistration.k8s.io/v1" {
			return fmt.Errorf("document %d is %v, not admissionregistration.k8s.io/v1", i, doc["apiVersion"])
		}
		var into any
		switch doc["kind"] {
		case "MutatingWebhookConfiguration":
			c := &admissionv1.MutatingWebhookConfiguration{}
			s.mutating, into = append(s.mutating, c), c
		case "ValidatingWebhookConfiguration":
			c := &admissionv1.ValidatingWebhookConfiguration{}
			s.validating, into = append(s.validating, c), c
		default:
			return fmt.Errorf("document %d is a %v, not a webhook configuration", i, doc["kind"])
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(doc, into); err != nil {
			return fmt.Errorf("document %d: %w", i, err)
		}
	}
}

// servesFunc says whether a controller serves the webhooks of a group's resource.
type servesFunc func(group, resource string) bool

// servesAll says whether every group and resource of rules is served; a subresource
// (workloads/status) counts as its resource.
func servesAll(rules []admissionv1.RuleWithOperations, serves servesFunc) bool {
	for _, r := range rules {
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				base, _, _ := strings.Cut(res, "/")
				if !serves(g, base) {
					return false
				}
			}
		}
	}
	return len(rules) > 0
}

// byURL points a webhook that upstream calls through its Service at https://127.0.0.1:PORT
// with the Service's path, trusting caBundle.
func byURL(cc *admissionv1.WebhookClientConfig, port int, caBundle []byte) error {
	if cc.Service == nil || cc.Service.Path == nil || cc.URL != nil {
		return errors.New("clientConfig is not a service with a path")
	}
	url := "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + *cc.Service.Path
	*cc = admissionv1.WebhookClientConfig{URL: &url, CABundle: caBundle}
	return nil
}

// forController rewrites the set for the controller `owner` serving on port: the webhooks it
// serves, called by URL, in configurations named owner-NAME (as the operators' kustomize
// namePrefix names them) and labelled as this harness's. It returns the names of the webhooks
// kept; none kept is an error (the manifests changed beyond what this harness knows).
func (s *webhookSet) forController(owner string, port int, caBundle []byte, serves servesFunc) ([]string, error) {
	var kept []string
	rename := func(m *metav1.ObjectMeta) {
		m.Name = owner + "-" + m.Name
		m.Labels = map[string]string{webhookManagedBy: "testcluster"}
	}
	for _, c := range s.mutating {
		rename(&c.ObjectMeta)
		c.Webhooks = slices.DeleteFunc(c.Webhooks, func(w admissionv1.MutatingWebhook) bool {
			return !servesAll(w.Rules, serves)
		})
		for i := range c.Webhooks {
			if err := byURL(&c.Webhooks[i].ClientConfig, port, caBundle); err != nil {
				return nil, fmt.Errorf("webhook %s: %w", c.Webhooks[i].Name, err)
			}
			kept = append(kept, c.Webhooks[i].Name)
		}
	}
	for _, c := range s.validating {
		rename(&c.ObjectMeta)
		c.Webhooks = slices.DeleteFunc(c.Webhooks, func(w admissionv1.ValidatingWebhook) bool {
			return !servesAll(w.Rules, serves)
		})
		for i := range c.Webhooks {
			if err := byURL(&c.Webhooks[i].ClientConfig, port, caBundle); err != nil {
				return nil, fmt.Errorf("webhook %s: %w", c.Webhooks[i].Name, err)
			}
			kept = append(kept, c.Webhooks[i].Name)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("%s: no webhook of its manifests is for a kind it serves", owner)
	}
	return kept, nil
}

// register creates the set's configurations (an empty one is left out).
func (s *webhookSet) register(ctx context.Context, client kubernetes.Interface) error {
	api := client.AdmissionregistrationV1()
	for _, c := range s.mutating {
		if len(c.Webhooks) == 0 {
			continue
		}
		if _, err := api.MutatingWebhookConfigurations().Create(ctx, c, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("MutatingWebhookConfiguration %s: %w", c.Name, err)
		}
	}
	for _, c := range s.validating {
		if len(c.Webhooks) == 0 {
			continue
		}
		if _, err := api.ValidatingWebhookConfigurations().Create(ctx, c, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("ValidatingWebhookConfiguration %s: %w", c.Name, err)
		}
	}
	return nil
}

// removeWebhooks deletes the configurations an earlier run on the same --dir registered: they
// point at ports nobody serves now, and with failurePolicy Fail they would refuse every object
// of their kinds.
func removeWebhooks(ctx context.Context, cfg *rest.Config) error {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	api := client.AdmissionregistrationV1()
	list := metav1.ListOptions{LabelSelector: webhookManagedBy + "=testcluster"}
	err = api.MutatingWebhookConfigurations().DeleteCollection(ctx, metav1.DeleteOptions{}, list)
	if err == nil || apierrors.IsNotFound(err) {
		err = api.ValidatingWebhookConfigurations().DeleteCollection(ctx, metav1.DeleteOptions{}, list)
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("removing an earlier run's webhook configurations: %w", err)
	}
	return nil
}

// waitTLS waits until 127.0.0.1:port completes a TLS handshake with a certificate for
// 127.0.0.1 that roots trust: the controller's webhook server is up. It gives up when the
// controller exits (done is closed) or after timeout.
func waitTLS(ctx context.Context, c *controller, port int, roots *x509.CertPool, timeout time.Duration) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	dialer := &tls.Dialer{NetDialer: &net.Dialer{Timeout: 2 * time.Second}, Config: &tls.Config{RootCAs: roots}}
	deadline := time.After(timeout)
	start := time.Now()
	for {
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			logf("%s webhook server answers TLS on %s after %.1fs", c.role, addr, time.Since(start).Seconds())
			return nil
		}
		select {
		case <-c.done:
			return fmt.Errorf("%s exited before its webhook server answered on %s; last lines of %s:\n%s",
				c.role, addr, c.logPath, tail(c.logPath, 20))
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			return fmt.Errorf("%s's webhook server did not answer a TLS handshake on %s within %s (last: %v); last lines of %s:\n%s",
				c.role, addr, timeout, err, c.logPath, tail(c.logPath, 20))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitAdmitted retries probe until it says the apiserver ran the controller's webhook on an
// object (a dry-run create): the apiserver has loaded the configurations and the controller
// has registered its handlers (both Kueue and JobSet add them after their server starts, and
// until then the path answers 404, which failurePolicy Fail turns into a refusal).
func waitAdmitted(ctx context.Context, c *controller, timeout time.Duration, probe func(context.Context) error) error {
	deadline := time.After(timeout)
	start := time.Now()
	for {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := probe(pctx)
		cancel()
		if err == nil {
			logf("%s webhooks admit objects after %.1fs", c.role, time.Since(start).Seconds())
			return nil
		}
		select {
		case <-c.done:
			return fmt.Errorf("%s exited before its webhooks answered; last lines of %s:\n%s", c.role, c.logPath, tail(c.logPath, 20))
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			return fmt.Errorf("%s's webhooks not in effect after %s: %v; last lines of %s:\n%s",
				c.role, timeout, err, c.logPath, tail(c.logPath, 20))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// operatorWebhooks is what one controller registers: its manifests, the port it serves them
// on, which kinds it serves, and a probe that says when the apiserver runs them.
type operatorWebhooks struct {
	set    *webhookSet
	port   int
	serves servesFunc
	probe  func(ctx context.Context, client kubernetes.Interface, cfg *rest.Config) error
}

// startWebhooks registers c's webhooks and waits until they are in effect: its server answers
// TLS, then the apiserver runs them on a dry-run object. No test object is created before.
func startWebhooks(ctx context.Context, cfg *rest.Config, c *controller, w operatorWebhooks, caPEM []byte,
	roots *x509.CertPool, timeout time.Duration) error {
	kept, err := w.set.forController(c.role, w.port, caPEM, w.serves)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if err := w.set.register(ctx, client); err != nil {
		return err
	}
	logf("%s webhooks registered: %s", c.role, strings.Join(kept, ", "))
	if err := waitTLS(ctx, c, w.port, roots, timeout); err != nil {
		return err
	}
	return waitAdmitted(ctx, c, timeout, func(ctx context.Context) error { return w.probe(ctx, client, cfg) })
}
