package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

type crdSource struct {
	crd  *apiextensionsv1.CustomResourceDefinition
	file string
}

// readCRDs returns every CustomResourceDefinition in the *.yaml / *.yml
// files of dirs (multi-document aware). Other kinds are an error, and so is
// one CRD name defined twice (e.g. two Kueue CRD sets at once).
func readCRDs(dirs []string) ([]crdSource, error) {
	var out []crdSource
	seen := map[string]string{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		yml, _ := filepath.Glob(filepath.Join(dir, "*.yml"))
		files = append(files, yml...)
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("--crds %s: no *.yaml files", dir)
		}
		for _, f := range files {
			crds, err := readCRDFile(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for _, c := range crds {
				if prev, ok := seen[c.Name]; ok {
					return nil, fmt.Errorf("CRD %s is defined in both %s and %s", c.Name, prev, f)
				}
				seen[c.Name] = f
				out = append(out, crdSource{crd: c, file: f})
			}
		}
	}
	return out, nil
}

func readCRDFile(path string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(fh, 4096)
	var out []*apiextensionsv1.CustomResourceDefinition
	for i := 0; ; i++ {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if len(doc) == 0 {
			continue
		}
		if doc["apiVersion"] != "apiextensions.k8s.io/v1" || doc["kind"] != "CustomResourceDefinition" {
			return nil, fmt.Errorf("document %d is %v %v, not an apiextensions.k8s.io/v1 CustomResourceDefinition",
				i, doc["apiVersion"], doc["kind"])
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(doc, crd); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		out = append(out, crd)
	}
}

// installCRDs creates (or updates, for a reused data dir) every CRD, waits
// until each is Established, then until discovery lists every served version
// of it, then warms every served version (see warmCRDs), so a client that
// starts after `ready` finds all of them answering.
func installCRDs(ctx context.Context, cfg *rest.Config, crds []crdSource) error {
	if len(crds) == 0 {
		return nil
	}
	t0 := time.Now()
	client, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	api := client.ApiextensionsV1().CustomResourceDefinitions()
	for _, s := range crds {
		_, err := api.Create(ctx, s.crd, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			var cur *apiextensionsv1.CustomResourceDefinition
			if cur, err = api.Get(ctx, s.crd.Name, metav1.GetOptions{}); err == nil {
				upd := s.crd.DeepCopy()
				upd.ResourceVersion = cur.ResourceVersion
				_, err = api.Update(ctx, upd, metav1.UpdateOptions{})
			}
		}
		if err != nil {
			return fmt.Errorf("CRD %s (%s): %w", s.crd.Name, s.file, err)
		}
	}

	tCreated := time.Now()
	deadline, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for _, s := range crds {
		for {
			cur, err := api.Get(deadline, s.crd.Name, metav1.GetOptions{})
			if err != nil {
				return fmt.Errorf("CRD %s: %w", s.crd.Name, err)
			}
			if cond(cur, apiextensionsv1.Established) == apiextensionsv1.ConditionTrue {
				break
			}
			if c := findCond(cur, apiextensionsv1.NamesAccepted); c != nil && c.Status == apiextensionsv1.ConditionFalse {
				return fmt.Errorf("CRD %s: names not accepted: %s", s.crd.Name, c.Message)
			}
			if err := sleepCtx(deadline, 100*time.Millisecond); err != nil {
				return fmt.Errorf("CRD %s: not Established: %w", s.crd.Name, err)
			}
		}
	}

	tEstablished := time.Now()
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	for _, s := range crds {
		for _, v := range s.crd.Spec.Versions {
			if !v.Served {
				continue
			}
			gv := s.crd.Spec.Group + "/" + v.Name
			for {
				list, err := disc.ServerResourcesForGroupVersion(gv)
				if err == nil && hasResource(list, s.crd.Spec.Names.Plural) {
					break
				}
				if err := sleepCtx(deadline, 100*time.Millisecond); err != nil {
					return fmt.Errorf("CRD %s: %s not in discovery: %w", s.crd.Name, gv, err)
				}
			}
		}
	}
	tDiscovered := time.Now()
	if err := warmCRDs(deadline, cfg, crds); err != nil {
		return err
	}
	logf("%d CRDs ready after %.1fs (create %.1fs, Established %.1fs, discovery %.1fs, first list %.1fs)",
		len(crds), time.Since(t0).Seconds(), tCreated.Sub(t0).Seconds(), tEstablished.Sub(tCreated).Seconds(),
		tDiscovered.Sub(tEstablished).Seconds(), time.Since(tDiscovered).Seconds())
	return nil
}

// warmCRDs lists every served version of every CRD until the list answers
// 200. kube-apiserver builds a custom resource's storage and watch cache on
// the first request for it, and answers 429 "storage is (re)initializing"
// until that cache is filled, after start-up and after every restart alike.
func warmCRDs(ctx context.Context, cfg *rest.Config, crds []crdSource) error {
	transport, err := rest.TransportFor(cfg)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	errs := make(chan error, 64)
	var wg sync.WaitGroup
	for _, s := range crds {
		for _, v := range s.crd.Spec.Versions {
			if !v.Served {
				continue
			}
			url := fmt.Sprintf("%s/apis/%s/%s/%s?limit=1", cfg.Host, s.crd.Spec.Group, v.Name, s.crd.Spec.Names.Plural)
			wg.Add(1)
			go func() {
				defer wg.Done()
				last := ""
				for {
					req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
					resp, err := client.Do(req)
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode == http.StatusOK {
							return
						}
						last = resp.Status
					} else {
						last = err.Error()
					}
					if err := sleepCtx(ctx, 100*time.Millisecond); err != nil {
						select {
						case errs <- fmt.Errorf("GET %s: no 200 (last: %s): %w", url, last, err):
						default:
						}
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func hasResource(list *metav1.APIResourceList, plural string) bool {
	for _, r := range list.APIResources {
		if r.Name == plural {
			return true
		}
	}
	return false
}

func findCond(c *apiextensionsv1.CustomResourceDefinition, t apiextensionsv1.CustomResourceDefinitionConditionType) *apiextensionsv1.CustomResourceDefinitionCondition {
	for i := range c.Status.Conditions {
		if c.Status.Conditions[i].Type == t {
			return &c.Status.Conditions[i]
		}
	}
	return nil
}

func cond(c *apiextensionsv1.CustomResourceDefinition, t apiextensionsv1.CustomResourceDefinitionConditionType) apiextensionsv1.ConditionStatus {
	if x := findCond(c, t); x != nil {
		return x.Status
	}
	return apiextensionsv1.ConditionUnknown
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func crdNames(crds []crdSource) string {
	names := make([]string, len(crds))
	for i, c := range crds {
		names[i] = c.crd.Name
	}
	return strings.Join(names, ",")
}
