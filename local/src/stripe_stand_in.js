/*
 * A local stand-in for Stripe.js, served by the local gateway at /_local/stripe.js and never deployed.
 *
 * It offers what the shop's checkout and @stripe/react-stripe-js use: Stripe(pk), elements() with the split
 * card elements (cardNumber, cardExpiry, cardCvc), createPaymentMethod and handleCardAction, over localstripe
 * through the gateway's proxy (/_local/stripe/v1/...), which adds the secret key localstripe wants for
 * creating a PaymentMethod. Real Stripe.js draws each field in its own iframe on Stripe's origin; this one
 * draws plain inputs in the mount node, so here the page could read the card: that is why it exists only
 * locally. Its limits are listed in docs/frontend-checkout.md.
 */
(function () {
  'use strict';

  var scriptUrl = document.currentScript && document.currentScript.src ? document.currentScript.src : location.href;
  var settingsPromise = null;

  /** {apiBase, publishableKey} from the gateway, fetched once. */
  function settings() {
    if (!settingsPromise) {
      settingsPromise = fetch(new URL('/_local/stripe', scriptUrl).toString(), { headers: { Accept: 'application/json' } })
        .then(function (response) {
          if (!response.ok) throw new Error('the local gateway has no Stripe settings (' + response.status + ')');
          return response.json();
        })
        .catch(function (error) {
          settingsPromise = null;
          throw error;
        });
    }
    return settingsPromise;
  }

  /** Stripe's form encoding: nested objects as a[b][c]=value. */
  function formEncode(data, prefix, out) {
    out = out || [];
    Object.keys(data).forEach(function (key) {
      var value = data[key];
      var name = prefix ? prefix + '[' + key + ']' : key;
      if (value === undefined || value === null || value === '') return;
      if (typeof value === 'object') formEncode(value, name, out);
      else out.push(encodeURIComponent(name) + '=' + encodeURIComponent(String(value)));
    });
    return out.join('&');
  }

  function apiError(message, type, code) {
    var error = { type: type || 'api_error', message: message };
    if (code) error.code = code;
    return error;
  }

  /** POSTs a form to the proxy; resolves {ok, body} or rejects with a Stripe-shaped error. */
  function post(path, data) {
    return settings()
      .then(function (s) {
        return fetch(s.apiBase + path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: formEncode(data),
        });
      })
      .then(function (response) {
        return response
          .json()
          .catch(function () {
            return {};
          })
          .then(function (body) {
            return { ok: response.ok, body: body };
          });
      })
      .catch(function (error) {
        throw apiError('We could not reach the payment service: ' + (error && error.message ? error.message : 'network error'), 'api_connection_error');
      });
  }

  // ------------------------------------------------------------------------------------------------------
  // Card fields

  var FIELDS = {
    cardNumber: { label: 'Card number', placeholder: '1234 1234 1234 1234', autocomplete: 'cc-number', maxLength: 19 },
    cardExpiry: { label: 'Expiration date (MM/YY)', placeholder: 'MM / YY', autocomplete: 'cc-exp', maxLength: 7 },
    cardCvc: { label: 'Security code', placeholder: 'CVC', autocomplete: 'cc-csc', maxLength: 3 },
  };

  var digits = function (text) {
    return String(text).replace(/\D/g, '');
  };

  function luhn(number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var d = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return sum % 10 === 0;
  }

  function brandOf(number) {
    if (/^4/.test(number)) return 'visa';
    if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
    if (/^3[47]/.test(number)) return 'amex';
    if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
    return 'unknown';
  }

  /** The shown text for what was typed. */
  function format(type, raw) {
    var d = digits(raw);
    if (type === 'cardNumber') return d.slice(0, 16).replace(/(\d{4})(?=\d)/g, '$1 ');
    if (type === 'cardExpiry') {
      d = d.slice(0, 4);
      if (d.length === 1 && Number(d) > 1) d = '0' + d; // '4' means April
      return d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2) : d;
    }
    return d.slice(0, 3);
  }

  /** {complete, error, value} for a field's text; `final` when the shopper has left the field. */
  function assess(type, text, final) {
    var d = digits(text);
    var incomplete = function (code, message) {
      return { complete: false, error: final && d.length > 0 ? apiError(message, 'validation_error', code) : undefined };
    };
    if (type === 'cardNumber') {
      // localstripe only knows 16-digit numbers; Stripe takes 15-digit Amex too.
      if (d.length < 16) return incomplete('incomplete_number', 'Your card number is incomplete.');
      if (!luhn(d)) return { complete: false, error: apiError('Your card number is invalid.', 'validation_error', 'invalid_number') };
      return { complete: true, value: d, brand: brandOf(d) };
    }
    if (type === 'cardExpiry') {
      if (d.length < 4) return incomplete('incomplete_expiry', "Your card's expiration date is incomplete.");
      var month = Number(d.slice(0, 2));
      var year = 2000 + Number(d.slice(2, 4));
      if (month < 1 || month > 12) return { complete: false, error: apiError("Your card's expiration date is invalid.", 'validation_error', 'invalid_expiry_month') };
      var now = new Date();
      if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) {
        return { complete: false, error: apiError("Your card's expiration date is in the past.", 'validation_error', 'invalid_expiry_year_past') };
      }
      return { complete: true, value: { month: month, year: year } };
    }
    if (d.length < 3) return incomplete('incomplete_cvc', "Your card's security code is incomplete.");
    return { complete: true, value: d };
  }

  function applyStyle(input, style) {
    var base = (style && style.base) || {};
    var map = { color: 'color', fontSize: 'fontSize', fontFamily: 'fontFamily', fontWeight: 'fontWeight', lineHeight: 'lineHeight', letterSpacing: 'letterSpacing' };
    Object.keys(map).forEach(function (key) {
      if (base[key]) input.style[map[key]] = base[key];
    });
  }

  function createElement(group, type, options) {
    var spec = FIELDS[type];
    options = options || {};
    var listeners = {};
    var node = null;
    var state = { empty: true, complete: false, error: undefined, brand: 'unknown', value: undefined };
    var destroyed = false;
    var classes = Object.assign({ base: 'StripeElement', focus: 'StripeElement--focus', invalid: 'StripeElement--invalid', complete: 'StripeElement--complete', empty: 'StripeElement--empty' }, options.classes || {});

    var input = document.createElement('input');
    input.type = 'text';
    input.inputMode = 'numeric';
    input.autocomplete = spec.autocomplete;
    input.maxLength = spec.maxLength;
    input.spellcheck = false;
    input.placeholder = options.placeholder || spec.placeholder;
    input.setAttribute('data-stripe-stand-in', type);
    input.style.cssText = 'all: unset; box-sizing: border-box; display: block; width: 100%; min-height: 1.5em; font: inherit; color: inherit;';
    applyStyle(input, options.style);
    input.disabled = Boolean(options.disabled);

    function emit(event, payload) {
      (listeners[event] || []).slice().forEach(function (handler) {
        handler(payload);
      });
    }

    function paint() {
      if (!node) return;
      [classes.base, classes.focus, classes.invalid, classes.complete, classes.empty].forEach(function (c) {
        node.classList.remove(c);
      });
      node.classList.add(classes.base);
      if (document.activeElement === input) node.classList.add(classes.focus);
      if (state.error) node.classList.add(classes.invalid);
      if (state.complete) node.classList.add(classes.complete);
      if (state.empty) node.classList.add(classes.empty);
      input.setAttribute('aria-invalid', state.error ? 'true' : 'false');
    }

    function refresh(final) {
      var verdict = assess(type, input.value, final);
      state.empty = input.value.length === 0;
      state.complete = verdict.complete;
      state.error = verdict.error;
      state.value = verdict.value;
      if (verdict.brand) state.brand = verdict.brand;
      paint();
      var change = { elementType: type, empty: state.empty, complete: state.complete, error: state.error };
      if (type === 'cardNumber') change.brand = state.brand;
      emit('change', change);
    }

    input.addEventListener('input', function () {
      var shown = format(type, input.value);
      if (shown !== input.value) input.value = shown;
      refresh(false);
    });
    input.addEventListener('focus', function () {
      paint();
      emit('focus', { elementType: type });
    });
    input.addEventListener('blur', function () {
      refresh(true);
      emit('blur', { elementType: type });
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') emit('escape', { elementType: type });
    });

    /** Names the input after the page's label for the mount node (as Stripe's iframes take a title). */
    function label(target) {
      var byFor = target.id ? document.querySelector('label[for="' + CSS.escape(target.id) + '"]') : null;
      input.removeAttribute('aria-labelledby');
      input.removeAttribute('aria-label');
      if (byFor && byFor.id) input.setAttribute('aria-labelledby', byFor.id);
      else input.setAttribute('aria-label', byFor ? byFor.textContent.trim() : spec.label);
    }

    var element = {
      elementType: type,
      mount: function (target) {
        if (destroyed) throw new Error('This Element has been destroyed.');
        var found = typeof target === 'string' ? document.querySelector(target) : target;
        if (!found) throw new Error('The selector you specified (' + target + ') applies to no DOM elements.');
        node = found;
        node.innerHTML = '';
        node.appendChild(input);
        label(node);
        paint();
        setTimeout(function () {
          emit('ready', element);
        }, 0);
      },
      unmount: function () {
        if (node && input.parentNode === node) node.removeChild(input);
        node = null;
      },
      destroy: function () {
        element.unmount();
        destroyed = true;
        listeners = {};
        delete group.byType[type];
      },
      update: function (next) {
        next = next || {};
        if (next.style) applyStyle(input, next.style);
        if (next.placeholder !== undefined) input.placeholder = next.placeholder;
        if (next.disabled !== undefined) input.disabled = Boolean(next.disabled);
        if (next.classes) Object.assign(classes, next.classes);
        paint();
      },
      on: function (event, handler) {
        (listeners[event] = listeners[event] || []).push(handler);
        return element;
      },
      once: function (event, handler) {
        var wrapped = function (payload) {
          element.off(event, wrapped);
          handler(payload);
        };
        return element.on(event, wrapped);
      },
      off: function (event, handler) {
        if (!handler) delete listeners[event];
        else listeners[event] = (listeners[event] || []).filter(function (h) {
          return h !== handler;
        });
        return element;
      },
      focus: function () {
        input.focus();
      },
      blur: function () {
        input.blur();
      },
      clear: function () {
        input.value = '';
        refresh(false);
      },
      /** Stand-in only: the field's verdict, for createPaymentMethod. */
      _assess: function () {
        refresh(true);
        return state;
      },
    };
    group.byType[type] = element;
    return element;
  }

  function createElements(options) {
    var group = { byType: {}, options: options || {} };
    return {
      create: function (type, elementOptions) {
        if (!FIELDS[type]) throw new Error('The local Stripe stand-in has no "' + type + '" element: use cardNumber, cardExpiry and cardCvc.');
        if (group.byType[type]) throw new Error('Can only create one Element of type ' + type + '.');
        return createElement(group, type, elementOptions);
      },
      getElement: function (typeOrComponent) {
        var type = typeOrComponent && typeof typeOrComponent !== 'string' ? typeOrComponent.__elementType : typeOrComponent;
        return group.byType[type] || null;
      },
      update: function (next) {
        Object.assign(group.options, next || {});
      },
      _group: group,
    };
  }

  // ------------------------------------------------------------------------------------------------------
  // The bank's 3-D Secure step

  /** Asks the shopper, as a bank's page would; resolves true (Complete) or false (Fail). */
  function challenge() {
    return new Promise(function (resolve) {
      var dialog = document.createElement('dialog');
      dialog.setAttribute('aria-labelledby', 'stripe-stand-in-3ds-title');
      dialog.setAttribute('aria-describedby', 'stripe-stand-in-3ds-text');
      dialog.setAttribute('data-stripe-stand-in', 'challenge');
      dialog.style.cssText = 'max-width: 24rem; padding: 1.25rem; border: 1px solid #555; border-radius: 8px; font: 16px/1.4 system-ui, sans-serif; color: #111; background: #fff;';
      var title = document.createElement('h2');
      title.id = 'stripe-stand-in-3ds-title';
      title.textContent = 'Confirm this payment with your bank';
      title.style.cssText = 'margin: 0 0 0.5rem; font-size: 1.2rem;';
      var text = document.createElement('p');
      text.id = 'stripe-stand-in-3ds-text';
      text.textContent = "Local test of your bank's 3-D Secure check: choose how the bank answers.";
      var row = document.createElement('div');
      row.style.cssText = 'display: flex; gap: 0.75rem; justify-content: flex-end; margin-top: 1rem;';
      var settled = false;
      function finish(success) {
        if (settled) return;
        settled = true;
        dialog.close();
        dialog.remove();
        resolve(success);
      }
      [
        ['Fail', false],
        ['Complete', true],
      ].forEach(function (pair) {
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = pair[0];
        button.style.cssText = 'min-height: 44px; padding: 0 1rem; font: inherit; cursor: pointer;';
        button.addEventListener('click', function () {
          finish(pair[1]);
        });
        row.appendChild(button);
      });
      // Escape is the shopper walking away from the bank's page: the check fails.
      dialog.addEventListener('cancel', function (event) {
        event.preventDefault();
        finish(false);
      });
      dialog.appendChild(title);
      dialog.appendChild(text);
      dialog.appendChild(row);
      document.body.appendChild(dialog);
      dialog.showModal();
      row.lastChild.focus();
    });
  }

  // ------------------------------------------------------------------------------------------------------
  // Stripe(pk)

  function Stripe(publishableKey) {
    if (typeof publishableKey !== 'string' || publishableKey.indexOf('pk_') !== 0) {
      throw new Error('Invalid API Key provided: Stripe() needs a publishable key (pk_...).');
    }
    if (!(this instanceof Stripe)) return new Stripe(publishableKey);
    var key = publishableKey;
    var groups = [];

    /** The three split fields of the group `card` belongs to. */
    function fieldsOf(card) {
      var group = groups.filter(function (g) {
        return Object.keys(g.byType).some(function (t) {
          return g.byType[t] === card;
        });
      })[0];
      return group ? group.byType : null;
    }

    this.elements = function (options) {
      var elements = createElements(options);
      groups.push(elements._group);
      return elements;
    };

    this.createPaymentMethod = function (typeOrData, maybeCard, maybeData) {
      var data = typeof typeOrData === 'string' ? Object.assign({ type: typeOrData, card: maybeCard }, maybeData || {}) : typeOrData || {};
      if (data.type !== 'card') {
        return Promise.resolve({ error: apiError('The local stand-in only creates card payment methods.', 'invalid_request_error', 'payment_method_invalid_parameter') });
      }
      var fields = data.card ? fieldsOf(data.card) : null;
      if (!fields || !fields.cardNumber || !fields.cardExpiry || !fields.cardCvc) {
        return Promise.resolve({ error: apiError('Mount cardNumber, cardExpiry and cardCvc from one elements() before paying.', 'invalid_request_error', 'parameter_missing') });
      }
      var checks = [
        ['cardNumber', 'incomplete_number', 'Your card number is incomplete.'],
        ['cardExpiry', 'incomplete_expiry', "Your card's expiration date is incomplete."],
        ['cardCvc', 'incomplete_cvc', "Your card's security code is incomplete."],
      ];
      var values = {};
      for (var i = 0; i < checks.length; i++) {
        var verdict = fields[checks[i][0]]._assess();
        if (!verdict.complete) {
          return Promise.resolve({ error: verdict.error || apiError(checks[i][2], 'validation_error', checks[i][1]) });
        }
        values[checks[i][0]] = verdict.value;
      }
      var body = {
        type: 'card',
        card: { number: values.cardNumber, exp_month: values.cardExpiry.month, exp_year: values.cardExpiry.year, cvc: values.cardCvc },
        billing_details: data.billing_details,
      };
      return post('/v1/payment_methods', body).then(
        function (reply) {
          if (reply.ok) return { paymentMethod: reply.body };
          return { error: (reply.body && reply.body.error) || apiError('The card was refused.', 'card_error') };
        },
        function (error) {
          return { error: error };
        },
      );
    };

    this.handleCardAction = function (clientSecret) {
      var id = typeof clientSecret === 'string' ? clientSecret.split('_secret_')[0] : '';
      if (!/^pi_\w+$/.test(id)) {
        return Promise.resolve({ error: apiError('Invalid value for handleCardAction: a client secret is needed.', 'invalid_request_error', 'parameter_invalid_string') });
      }
      return challenge()
        .then(function (success) {
          return post('/v1/payment_intents/' + id + '/_authenticate', { client_secret: clientSecret, success: success ? 'true' : 'false', key: key }).then(function (reply) {
            if (!reply.ok) return { error: (reply.body && reply.body.error) || apiError('The payment could not be authenticated.', 'invalid_request_error') };
            if (!success) {
              return {
                error: apiError(
                  'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
                  'invalid_request_error',
                  'payment_intent_authentication_failure',
                ),
              };
            }
            return { paymentIntent: reply.body };
          });
        })
        .catch(function (error) {
          return { error: error && error.message ? error : apiError('The payment could not be authenticated.') };
        });
    };

    // The shop confirms payments on its server; these exist because @stripe/react-stripe-js checks for them.
    var unsupported = function (name) {
      return function () {
        return Promise.resolve({ error: apiError(name + ' is not part of the local stand-in: the shop confirms payments on its server.', 'invalid_request_error') });
      };
    };
    this.createToken = unsupported('createToken');
    this.confirmCardPayment = unsupported('confirmCardPayment');
    this.confirmPayment = unsupported('confirmPayment');
    this.retrievePaymentIntent = unsupported('retrievePaymentIntent');
    this._registerWrapper = function () {};
    this.registerAppInfo = function () {};
  }

  // @stripe/stripe-js compares this with the Stripe.js release it was built for and warns on a mismatch.
  Stripe.version = 'endive';
  Stripe.standIn = true;
  window.Stripe = Stripe;
})();
